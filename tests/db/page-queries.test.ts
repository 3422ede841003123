import { beforeAll, describe, expect, it } from "vitest";
import type { RedlineDb } from "@/db/client";
import { listChanges } from "@/db/queries/changes";
import { resolveIncidentRoute, resolveVersionRoute } from "@/db/queries/incident-route";
import { decodeCursor } from "@/db/queries/prepared";
import { SNIPPET_OPEN, searchIncidents, toFtsQuery } from "@/db/queries/search";
import { getVendor, listVendorIncidents } from "@/db/queries/vendor-profile";
import { listVendorOverviews } from "@/db/queries/vendors-overview";
import { ensureVendor } from "@/db/vendors";
import { incidentKey } from "@/lib/incident-key";
import { ingestSnapshot } from "@/scrapers/ingest/ingest-snapshot";
import { archiveAcmeLifecycle } from "@/tests/support/acme-archive";
import { freshDatabase } from "@/tests/support/database";
import { makeIncident } from "@/tests/support/incidents";
import { makeTestPlatform, snapshotBody } from "@/tests/support/test-platform";

let db: RedlineDb;

beforeAll(async () => {
  db = freshDatabase();
  const platform = makeTestPlatform({ kind: "recent", limit: 25 });
  await archiveAcmeLifecycle(db, platform);
  const other = ensureVendor(db, { slug: "other", name: "Other Co", platform: platform.name });
  const odd = makeIncident({ vendor: "other", id: "https://blog.other.test/post/1", title: "Payments outage", startedAt: "2026-04-09T00:00:00.000Z", components: [{ id: "pay", name: "Payments" }] });
  await ingestSnapshot(db, { vendor: other, platform, source: "feed", observedAt: "2026-04-09T01:00:00.000Z", body: snapshotBody([odd]) });
});

describe("latest changes", () => {
  it("pages through every change newest first, without gaps or repeats", () => {
    const all = listChanges(db, {}, 1000).rows;
    const seen: number[] = [];
    let cursor = null;
    for (let guard = 0; guard < 100; guard += 1) {
      const page = listChanges(db, { before: cursor }, 3);
      seen.push(...page.rows.map((r) => r.versionId));
      if (!page.next) break;
      cursor = decodeCursor(page.next);
    }
    expect(seen).toEqual(all.map((r) => r.versionId));
    const times = all.map((r) => r.observedAt);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it("merges several kinds newest first and keeps only those kinds", () => {
    const rows = listChanges(db, { kinds: ["impact-downgraded", "incident-deleted", "update-edited"] }, 10).rows;
    expect(rows.map((r) => r.kinds.find((k) => ["impact-downgraded", "incident-deleted", "update-edited"].includes(k)))).toEqual(["incident-deleted", "impact-downgraded", "update-edited"]);
  });

  it("filters by vendor, and by vendor and kind together", () => {
    const other = getVendor(db, "other");
    expect(listChanges(db, { vendorId: other?.id }, 10).rows.map((r) => r.vendorSlug)).toEqual(["other"]);
    expect(listChanges(db, { vendorId: other?.id, kinds: ["update-edited"] }, 10).rows).toEqual([]);
  });
});

describe("vendors and incidents", () => {
  it("tells open incidents, the last incident and the 90-day count per vendor", () => {
    const [acme] = listVendorOverviews(db, new Date("2026-04-30T00:00:00.000Z"), "acme");
    expect(acme).toMatchObject({ slug: "acme", openIncidents: 0, incidentsLast90Days: 4 });
    expect(acme?.lastIncident?.title).toBe("Elevated error rates for webhooks");
  });

  it("filters a vendor's incidents by impact and component", () => {
    const acme = getVendor(db, "acme");
    if (!acme) throw new Error("missing vendor");
    expect(listVendorIncidents(db, acme.id, { impact: "major" }, 10).rows.map((r) => r.providerId)).toEqual(["d404"]);
    expect(listVendorIncidents(db, acme.id, { component: "REST API" }, 10).rows.map((r) => r.providerId)).toEqual(["k3x9"]);
  });

  it("finds an incident by a path key, even when its id is a URL", () => {
    const route = resolveIncidentRoute(db, "other", incidentKey("https://blog.other.test/post/1"));
    expect(route?.incident.current.incident.title).toBe("Payments outage");
    expect(resolveVersionRoute(db, "acme", "k3x9", "5")?.version.kinds).toEqual(["impact-downgraded"]);
    expect(resolveVersionRoute(db, "acme", "k3x9", "0")).toBeUndefined();
  });
});

describe("search", () => {
  it("ranks matches with the matched words marked, filtered by vendor", () => {
    const query = toFtsQuery("hot spotted") ?? "";
    const { hits } = searchIncidents(db, query, {}, { limit: 10, offset: 0 });
    expect(hits.map((h) => h.providerId)).toEqual(["k3x9"]);
    expect(hits[0]?.snippet).toContain(`${SNIPPET_OPEN}hot`);
    expect(searchIncidents(db, query, { vendor: "other" }, { limit: 10, offset: 0 }).hits).toEqual([]);
    expect(searchIncidents(db, toFtsQuery("payment*") ?? "", {}, { limit: 10, offset: 0 }).hits.map((h) => h.vendorSlug)).toEqual(["other"]);
  });
});
