import { beforeAll, describe, expect, it } from "vitest";
import type { RedlineDb } from "@/db/client";
import { listChanges } from "@/db/queries/changes";
import { getVersionChange, getVersionDetail } from "@/db/queries/incident-page";
import { resolveIncidentRoute, resolveVersionRoute } from "@/db/queries/incident-route";
import { decodeCursor } from "@/db/driver/prepared";
import { archivePathExists } from "@/db/queries/route-exists";
import { SNIPPET_OPEN, searchIncidents, toFtsQuery } from "@/db/queries/search";
import { getVendor, listVendorIncidents } from "@/db/queries/vendor-profile";
import { listVendorOverviews } from "@/db/queries/vendors-overview";
import { packVersionContent, unpackVersionContent } from "@/db/history/version-content";
import { ensureVendor } from "@/db/settings/vendors";
import { incidentKey } from "@/lib/incident-key";
import { ingestSnapshot } from "@/scrapers/ingest/ingest-snapshot";
import { archiveAcmeLifecycle } from "@/tests/support/acme-archive";
import { freshDatabase } from "@/tests/support/database";
import { makeIncident } from "@/tests/support/incidents";
import { makeTestPlatform, snapshotBody } from "@/tests/support/test-platform";

let db: RedlineDb;

beforeAll(async () => {
  db = await freshDatabase();
  const platform = makeTestPlatform({ kind: "recent", limit: 25 });
  await archiveAcmeLifecycle(db, platform);
  const other = await ensureVendor(db, { slug: "other", name: "Other Co", platform: platform.name });
  const odd = makeIncident({ vendor: "other", id: "https://blog.other.test/post/1", title: "Payments outage", startedAt: "2026-04-09T00:00:00.000Z", components: [{ id: "pay", name: "Payments" }] });
  await ingestSnapshot(db, { vendor: other, platform, source: "feed", observedAt: "2026-04-09T01:00:00.000Z", body: snapshotBody([odd]) });
});

describe("latest changes", () => {
  it("pages through every change newest first, without gaps or repeats", async () => {
    const all = (await listChanges(db, {}, 1000)).rows;
    const seen: number[] = [];
    let cursor = null;
    for (let guard = 0; guard < 100; guard += 1) {
      const page = await listChanges(db, { before: cursor }, 3);
      seen.push(...page.rows.map((r) => r.versionId));
      if (!page.next) break;
      cursor = decodeCursor(page.next);
    }
    expect(seen).toEqual(all.map((r) => r.versionId));
    const times = all.map((r) => r.observedAt);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it("merges several kinds newest first and keeps only those kinds", async () => {
    const rows = (await listChanges(db, { kinds: ["impact-downgraded", "incident-deleted", "update-edited"] }, 10)).rows;
    expect(rows.map((r) => r.kinds.find((k) => ["impact-downgraded", "incident-deleted", "update-edited"].includes(k)))).toEqual(["incident-deleted", "impact-downgraded", "update-edited"]);
  });

  it("filters by vendor, and by vendor and kind together", async () => {
    const other = await getVendor(db, "other");
    expect((await listChanges(db, { vendorId: other?.id }, 10)).rows.map((r) => r.vendorSlug)).toEqual(["other"]);
    expect((await listChanges(db, { vendorId: other?.id, kinds: ["update-edited"] }, 10)).rows).toEqual([]);
  });
});

describe("vendors and incidents", () => {
  it("tells open incidents, the last incident and the 90-day count per vendor", async () => {
    const [acme] = await listVendorOverviews(db, new Date("2026-04-30T00:00:00.000Z"), { profileOf: () => null, defaultIntervalMs: 300_000 }, "acme");
    expect(acme).toMatchObject({ slug: "acme", openIncidents: 0, incidentsLast90Days: 4 });
    expect(acme?.now).toMatchObject({ state: "unknown", reason: "not-polled" });
    expect(acme?.now.asOf).toBe(acme?.now.unknownSince);
    expect(acme?.lastIncident?.title).toBe("Elevated error rates for webhooks");
  });

  it("filters a vendor's incidents by impact and component", async () => {
    const acme = await getVendor(db, "acme");
    if (!acme) throw new Error("missing vendor");
    expect((await listVendorIncidents(db, acme.id, { impact: "major" }, 10)).rows.map((r) => r.providerId)).toEqual(["d404"]);
    expect((await listVendorIncidents(db, acme.id, { component: "REST API" }, 10)).rows.map((r) => r.providerId)).toEqual(["k3x9"]);
  });

  it("finds an incident by a path key, even when its id is a URL", async () => {
    const route = await resolveIncidentRoute(db, "other", incidentKey("https://blog.other.test/post/1"));
    expect(route?.incident.current.incident.title).toBe("Payments outage");
    expect((await resolveVersionRoute(db, "acme", "k3x9", "5"))?.version.kinds).toEqual(["impact-downgraded"]);
    expect(await resolveVersionRoute(db, "acme", "k3x9", "0")).toBeUndefined();
  });

  it("names each version's incident on its change page as the version's snapshot does, also for rows that stored no title", async () => {
    const route = await resolveIncidentRoute(db, "acme", "k3x9");
    if (!route) throw new Error("missing incident");
    const headings = await Promise.all(route.incident.versions.map(async (v) => {
      const incident = (await getVersionDetail(db, route.incident.id, v.seq))?.snapshot.incident;
      return incident ? { title: incident.title, impact: incident.impact, kind: incident.kind } : undefined;
    }));
    expect(new Set(headings.map((h) => h?.impact)).size).toBeGreaterThan(1);
    expect(await Promise.all(route.incident.versions.map(async (v) => (await getVersionChange(db, route.incident.id, v.seq))?.heading))).toEqual(headings);
    const stored = (await db.connection.prepare<[number], { content: Buffer }>("SELECT content FROM incident_versions WHERE incident_id = ? AND seq = 2").get(route.incident.id))?.content;
    if (!stored) throw new Error("missing version 2");
    const setContent = db.connection.prepare<[Buffer, number]>("UPDATE incident_versions SET content = ? WHERE incident_id = ? AND seq = 2");
    try {
      await setContent.run(packVersionContent({ ...unpackVersionContent(stored), title: null }), route.incident.id);
      expect((await getVersionChange(db, route.incident.id, 2))?.heading).toEqual(headings[1]);
    } finally {
      await setContent.run(stored, route.incident.id);
    }
  });

  it("tells the proxy which archive addresses name something missing, as the pages would find it", async () => {
    const acme = await resolveIncidentRoute(db, "acme", "k3x9");
    const count = acme?.incident.versionCount ?? 0;
    expect(count).toBeGreaterThan(1);
    const url = `/vendors/other/incidents/${incidentKey("https://blog.other.test/post/1")}`;
    const cases: Array<[string, boolean]> = [
      ["/vendors/acme", true],
      ["/vendors/acme/changes", true],
      ["/vendors/nobody", false],
      ["/vendors/nobody/incidents/k3x9", false],
      ["/vendors/acme/incidents/k3x9", true],
      ["/vendors/acme/incidents/k3x9/compare", true],
      ["/vendors/acme/incidents/k3x9/export.json", true],
      ["/vendors/other/incidents/k3x9", false],
      ["/vendors/acme/incidents/nope", false],
      [url, true],
      ["/vendors/acme/incidents/k3x9/versions/1", true],
      [`/vendors/acme/incidents/k3x9/versions/${count}/export.md`, true],
      [`/vendors/acme/incidents/k3x9/versions/${count + 1}`, false],
      ["/vendors/acme/incidents/k3x9/versions/0", false],
      ["/vendors/acme/incidents/k3x9/versions/x", false],
      ["/vendors/acme/unknown", true],
    ];
    expect(await Promise.all(cases.map(async ([path]) => [path, await archivePathExists(db, path)]))).toEqual(cases);
    // The same answers the pages' own reads give.
    for (let seq = 1; seq <= count + 1; seq += 1) {
      expect(await archivePathExists(db, `/vendors/acme/incidents/k3x9/versions/${seq}`)).toBe((await resolveVersionRoute(db, "acme", "k3x9", String(seq))) !== undefined);
    }
  });
});

describe("search", () => {
  it("ranks matches with the matched words marked, filtered by vendor", async () => {
    const query = toFtsQuery("hot spotted") ?? "";
    const { hits } = await searchIncidents(db, query, {}, { limit: 10, offset: 0 });
    expect(hits.map((h) => h.providerId)).toEqual(["k3x9"]);
    expect(hits[0]?.snippet).toContain(`${SNIPPET_OPEN}hot`);
    expect((await searchIncidents(db, query, { vendor: "other" }, { limit: 10, offset: 0 })).hits).toEqual([]);
    expect((await searchIncidents(db, toFtsQuery("payment*") ?? "", {}, { limit: 10, offset: 0 })).hits.map((h) => h.vendorSlug)).toEqual(["other"]);
  });
});
