import { beforeAll, describe, expect, it } from "vitest";
import type { RedlineDb } from "@/db/client";
import { getArchiveChangePosition, listArchiveChangesSince } from "@/db/queries/archive-changes";
import { getArchiveRevision } from "@/db/queries/archive-revision";
import { versionsOfCapture } from "@/db/queries/capture-versions";
import { listChangeDetails, listChanges } from "@/db/queries/changes";
import { deletedIncidentHistory } from "@/db/queries/deleted-incidents";
import { listIncidents } from "@/db/queries/incident-list";
import { listCaptureWarnings, listProcessStatus, listRawRetention, listSourceStatus, listVendorPollStatus } from "@/db/queries/operator-status";
import { decodeCursor } from "@/db/driver/prepared";
import { archivePathExists } from "@/db/queries/route-exists";
import { SNIPPET_CLOSE, SNIPPET_OPEN, searchCurrentText, searchIncidents, toFtsQuery } from "@/db/queries/search";
import { readStorageStats } from "@/db/queries/storage-stats";
import { listTroubledSubscriptions } from "@/db/queries/subscription-status";
import { findUnknownVendor, listVendorNames } from "@/db/queries/vendor-names";
import { lastGoodCaptureAt, listSourceStandings, listUnresolvedGroups, listUnresolvedIncidents } from "@/db/queries/vendor-now";
import { getArchivedInstants, getVendor, listComponentNames, listIncidentFacts, listStatuses, listVendorIncidents } from "@/db/queries/vendor-profile";
import { listVendorOverviews } from "@/db/queries/vendors-overview";
import { packSearchText, type SearchFields } from "@/db/search/search-text";
import { packVersionContent } from "@/db/history/version-content";
import { changeKindCode } from "@/lib/change-kinds";
import { currentSummarizer } from "@/lib/summarize";
import { freshDatabase } from "@/tests/support/database";

/**
 * The read queries over a small archive written row by row, so they run the same on SQLite and
 * PostgreSQL (REDLINE_TEST_DATABASE) whatever the state of the recording path: every expectation
 * here holds on both.
 */

const AT = (day: number, hour = 0) => new Date(Date.UTC(2026, 2, day, hour)).toISOString();

interface Seeded {
  id: number;
  vendor: number;
  providerId: string;
  title: string;
  status: string | null;
  impact: string | null;
  startedAt: string | null;
  presence?: string;
  kind?: string;
  firstSeenAt: string;
  components?: string[];
  search: SearchFields;
  versions: Array<{ id: number; at: string; kinds: string[]; capture: number; removed?: string }>;
}

const INCIDENTS: Seeded[] = [
  {
    id: 1, vendor: 1, providerId: "inc-1", title: "Elevated API errors", status: "resolved", impact: "major", startedAt: AT(1), firstSeenAt: AT(1, 1), components: ["API"],
    search: ["Elevated API errors", "We are investigating errors on api.example.com in us-east-1.", ""],
    versions: [
      { id: 1, at: AT(1, 1), kinds: ["incident-new"], capture: 1 },
      { id: 2, at: AT(2, 1), kinds: ["update-edited", "incident-resolved"], capture: 2, removed: "Customers in eu-west-2 were not affected." },
    ],
  },
  {
    id: 2, vendor: 1, providerId: "inc-2", title: "Dashboard slow", status: "investigating", impact: "minor", startedAt: null, firstSeenAt: AT(3, 1), components: ["Dashboard"],
    search: ["Dashboard slow", "The dashboard is slow; API errors for some users.", ""],
    versions: [{ id: 3, at: AT(3, 1), kinds: ["incident-new"], capture: 3 }],
  },
  {
    id: 3, vendor: 2, providerId: "g-1", title: "Login outage", status: "investigating", impact: "critical", startedAt: AT(4), firstSeenAt: AT(4, 1),
    search: ["Login outage", "Users cannot log in. Café terminals affected.", "The outage was caused by an expired TLS certificate."],
    versions: [{ id: 4, at: AT(4, 1), kinds: ["incident-new"], capture: 4 }],
  },
  {
    id: 5, vendor: 2, providerId: "g-2", title: "Slow logins", status: "identified", impact: null, startedAt: null, firstSeenAt: AT(4, 2),
    search: ["Slow logins", "Logins are slow.", ""],
    versions: [{ id: 7, at: AT(4, 2), kinds: ["incident-new"], capture: 4 }],
  },
  {
    id: 4, vendor: 1, providerId: "inc-3", title: "Old incident", status: "resolved", impact: null, startedAt: AT(1, 5), firstSeenAt: AT(1, 6), presence: "deleted",
    search: ["Old incident", "Gone now.", ""],
    versions: [
      { id: 5, at: AT(1, 6), kinds: ["incident-new"], capture: 1 },
      { id: 6, at: AT(5, 1), kinds: ["incident-deleted"], capture: 5 },
    ],
  },
];

async function seed(db: RedlineDb): Promise<void> {
  const c = db.connection;
  const run = (sql: string, ...params: unknown[]) => c.prepare(sql).run(...params);
  await run("INSERT INTO vendors (id, slug, name, platform, created_at, url, enabled, origin) VALUES (1, 'acme', 'acme Corp', 'statuspage', ?, 'https://acme.test/api', TRUE, 'user')", AT(1));
  await run("INSERT INTO vendors (id, slug, name, platform, created_at, url, enabled, origin) VALUES (2, 'globex', 'Globex', 'statuspage', ?, NULL, FALSE, 'import')", AT(1));
  await run("INSERT INTO sources (vendor_id, url, platform) VALUES (1, 'https://acme.test/api', 'statuspage')");
  const captures: Array<[number, number, string, string, string, number]> = [
    [1, 1, AT(1, 1), "ok", "https://acme.test/api", 100],
    [2, 1, AT(2, 1), "ok", "https://acme.test/api", 120],
    [3, 1, AT(3, 1), "ok", "https://acme.test/api", 130],
    [4, 2, AT(4, 1), "ok", "feed.json", 90],
    [5, 1, AT(5, 1), "ok", "https://acme.test/api", 140],
    [6, 1, AT(6, 1), "failed", "https://acme.test/api", 0],
  ];
  for (const [id, vendor, at, outcome, source, size] of captures) {
    await run(
      `INSERT INTO captures (id, vendor_id, source, platform, observed_at, outcome, error, size, hash, recorded_at, warnings, warning_count)
       VALUES (?, ?, ?, 'statuspage', ?, ?, ?, ?, ?, ?, ?, ?)`,
      id, vendor, source, at, outcome, outcome === "failed" ? "HTTP 503" : null, size, `h${id}`, at,
      id === 4 ? JSON.stringify([{ path: "$.incidents[0]", message: "no id" }]) : null, id === 4 ? 1 : 0,
    );
  }
  await run("INSERT INTO poll_state (vendor_id, next_poll_at, last_poll_at, last_outcome, last_error, consecutive_failures, backoff_seconds) VALUES (1, ?, ?, 'failed', 'HTTP 503', 1, 60)", AT(6, 2), AT(6, 1));
  for (const i of INCIDENTS) {
    const last = i.versions.at(-1)?.at ?? i.firstSeenAt;
    await run(
      `INSERT INTO incidents (id, vendor_id, provider_id, kind, title, status, impact, started_at, presence, source, first_seen_at, last_seen_at, observed_hash, version_count, last_changed_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'h', ?, ?)`,
      i.id, i.vendor, i.providerId, i.kind ?? "incident", i.title, i.status, i.impact, i.startedAt, i.presence ?? "listed",
      i.vendor === 1 ? "https://acme.test/api" : "feed.json", i.firstSeenAt, last, i.versions.length, last,
    );
    for (const [n, component] of (i.components ?? []).entries()) {
      await run("INSERT INTO incident_components (incident_id, vendor_id, component_id, name) VALUES (?, ?, ?, ?)", i.id, i.vendor, `c${n}`, component);
    }
    for (const [n, v] of i.versions.entries()) {
      const content = packVersionContent({ changes: [], summary: `${i.title}: ${v.kinds.join(", ")}`, headline: v.kinds[0] ?? "", title: i.title, impact: i.impact, incidentKind: "incident" });
      await run(
        `INSERT INTO incident_versions (id, incident_id, vendor_id, seq, observed_at, hash, kinds, content, text_version, capture_id)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        v.id, i.id, i.vendor, n + 1, v.at, `v${v.id}`, JSON.stringify(v.kinds), content, currentSummarizer.version, v.capture,
      );
      for (const kind of v.kinds) {
        await run("INSERT INTO version_kinds (kind, observed_ms, version_id, vendor_id) VALUES (?, ?, ?, ?)", changeKindCode(kind), Date.parse(v.at), v.id, i.vendor);
      }
      if (v.removed !== undefined) {
        if (c.dialect.name === "postgres") await run("INSERT INTO version_search (version_id, removed) VALUES (?, ?)", v.id, v.removed);
        else await run("INSERT INTO version_search (rowid, removed) VALUES (?, ?)", v.id, v.removed);
      }
    }
    if (c.dialect.name === "postgres") await run("INSERT INTO incident_search (incident_id, title, updates, postmortem) VALUES (?, ?, ?, ?)", i.id, ...i.search);
    else await run("INSERT INTO incident_search_text (incident_id, body) VALUES (?, ?)", i.id, packSearchText(i.search));
  }
  await run("INSERT INTO watchlists (id, name, created_at) VALUES (1, 'team', ?)", AT(1));
  await run("INSERT INTO watchlist_members (watchlist_id, vendor_id, component) VALUES (1, 1, 'api')");
  await run("INSERT INTO watchlist_members (watchlist_id, vendor_id, component) VALUES (1, 2, NULL)");
  for (const [at, event, detail] of [[AT(6), "started", null], [AT(6, 1), "exited", "code 1, up 3 s"], [AT(6, 2), "restarting", null]] as const) {
    await run("INSERT INTO supervisor_events (at, process, event, detail) VALUES (?, 'poller', ?, ?)", at, event, detail);
  }
  await run(
    `INSERT INTO subscriptions (id, target, format, filter, secret, status, disabled_at, disabled_reason, created_at)
     VALUES ('s1', 'https://hooks.example.com/x', 'json', '{}', 'k', 'disabled', ?, 'gone', ?)`,
    AT(6), AT(1),
  );
}

const marked = (text: string) => text.replaceAll(SNIPPET_OPEN, "<mark>").replaceAll(SNIPPET_CLOSE, "</mark>");
const words = (input: string) => toFtsQuery(input) ?? "";

let db: RedlineDb;
beforeAll(async () => {
  db = await freshDatabase();
  await seed(db);
});

describe("incident lists", () => {
  it("list every vendor's incidents newest first, by start or first seen, a page at a time", async () => {
    const first = await listIncidents(db, {}, 3);
    expect(first.rows.map((r) => r.providerId)).toEqual(["g-2", "g-1", "inc-2"]);
    expect(first.rows[2]).toMatchObject({ vendorSlug: "acme", timeline: AT(3, 1), versionCount: 1, startedAt: null });
    const rest = await listIncidents(db, { before: decodeCursor(first.next ?? "") }, 3);
    expect(rest.rows.map((r) => r.providerId)).toEqual(["inc-3", "inc-1"]);
    expect(rest.next).toBeNull();
  });

  it("filter by vendor, impact, status, kind, component (in any case), period and words", async () => {
    const ids = async (filter: Parameters<typeof listIncidents>[1]) => (await listIncidents(db, filter, 10)).rows.map((r) => r.providerId);
    expect(await ids({ vendorIds: [2] })).toEqual(["g-2", "g-1"]);
    expect(await ids({ impacts: ["unknown", "minor"] })).toEqual(["g-2", "inc-2", "inc-3"]);
    expect(await ids({ statuses: ["resolved"] })).toEqual(["inc-3", "inc-1"]);
    expect(await ids({ kinds: ["incident-resolved", "incident-deleted"] })).toEqual(["inc-3", "inc-1"]);
    expect(await ids({ component: "api" })).toEqual(["inc-1"]);
    expect(await ids({ since: AT(1, 3), until: AT(4) })).toEqual(["inc-2", "inc-3"]);
    expect(await ids({ query: words("errors") })).toEqual(["inc-2", "inc-1"]);
    expect(await ids({ query: words("caf*") })).toEqual(["g-1"]);
  });

  it("list a vendor's incidents, filtered, with its components, statuses, facts and archived period", async () => {
    const acme = await getVendor(db, "acme");
    expect(acme).toMatchObject({ id: 1, name: "acme Corp", enabled: true });
    expect((await getVendor(db, "globex"))?.enabled).toBe(false);
    const page = await listVendorIncidents(db, 1, {}, 2);
    expect(page.rows.map((r) => r.providerId)).toEqual(["inc-2", "inc-3"]);
    const next = await listVendorIncidents(db, 1, { before: decodeCursor(page.next ?? "") }, 2);
    expect(next.rows.map((r) => r.providerId)).toEqual(["inc-1"]);
    expect((await listVendorIncidents(db, 1, { impact: "unknown" }, 10)).rows.map((r) => r.providerId)).toEqual(["inc-3"]);
    expect((await listVendorIncidents(db, 1, { status: "investigating", component: "Dashboard" }, 10)).rows.map((r) => r.providerId)).toEqual(["inc-2"]);
    expect((await listVendorIncidents(db, 1, { from: AT(1, 2), to: AT(3) }, 10)).rows.map((r) => r.providerId)).toEqual(["inc-3"]);
    expect(await listComponentNames(db, 1)).toEqual(["API", "Dashboard"]);
    expect(await listStatuses(db, 1)).toEqual(["investigating", "resolved"]);
    expect((await listIncidentFacts(db, 1, AT(1), AT(2))).map((f) => f.presence?.presence).sort()).toEqual(["deleted", "listed"]);
    expect(await getArchivedInstants(db, 1)).toEqual([AT(1), AT(1, 1), AT(6, 1), null]);
  });
});

describe("change lists", () => {
  it("list every change newest first with its text, a page at a time", async () => {
    const first = await listChanges(db, {}, 5);
    expect(first.rows.map((r) => r.versionId)).toEqual([6, 7, 4, 3, 2]);
    expect(first.rows[4]).toMatchObject({ kinds: ["update-edited", "incident-resolved"], vendorSlug: "acme", versionTitle: "Elevated API errors", summary: "Elevated API errors: update-edited, incident-resolved" });
    const rest = await listChanges(db, { before: decodeCursor(first.next ?? "") }, 5);
    expect(rest.rows.map((r) => r.versionId)).toEqual([5, 1]);
    expect(rest.next).toBeNull();
    expect((await listChangeDetails(db, { incidentId: 1 }, 10)).rows.map((r) => [r.versionId, r.changes])).toEqual([[2, []], [1, []]]);
  });

  it("filter by kind (across vendors and of one), impact, status, components, period, words and a watchlist", async () => {
    const ids = async (filter: Parameters<typeof listChanges>[1]) => (await listChanges(db, filter, 10)).rows.map((r) => r.versionId);
    expect(await ids({ kinds: ["incident-new"] })).toEqual([7, 4, 3, 5, 1]);
    expect(await ids({ vendorId: 1, kinds: ["incident-new", "incident-deleted"] })).toEqual([6, 3, 5, 1]);
    expect(await ids({ kinds: ["incident-new"], before: { at: AT(3, 1), id: 3 } })).toEqual([5, 1]);
    expect(await ids({ impacts: ["critical"] })).toEqual([4]);
    expect(await ids({ statuses: ["investigating"], vendorId: 1 })).toEqual([3]);
    expect(await ids({ component: "DASHBOARD" })).toEqual([3]);
    expect(await ids({ components: ["api", "nothing"] })).toEqual([2, 1]);
    expect(await ids({ since: AT(2), until: AT(4, 1) })).toEqual([3, 2]);
    expect(await ids({ query: words("outage") })).toEqual([4]);
    expect(await ids({ watch: [{ vendorId: 1, components: ["Api"] }, { vendorId: 2, components: null }] })).toEqual([7, 4, 2, 1]);
  });

  it("name what a capture recorded and the watchlists that show it", async () => {
    expect(await versionsOfCapture(db, 1)).toEqual([
      { vendorSlug: "acme", providerId: "inc-1", kinds: ["incident-new"], watchlists: ["team"] },
      { vendorSlug: "acme", providerId: "inc-3", kinds: ["incident-new"], watchlists: [] },
    ]);
    expect(await versionsOfCapture(db, 4)).toEqual([
      { vendorSlug: "globex", providerId: "g-1", kinds: ["incident-new"], watchlists: ["team"] },
      { vendorSlug: "globex", providerId: "g-2", kinds: ["incident-new"], watchlists: ["team"] },
    ]);
  });

  it("keep a deleted incident's observations, and only a deleted one's", async () => {
    expect(await deletedIncidentHistory(db, "acme", "inc-3")).toEqual([AT(1, 6), AT(5, 1)]);
    expect(await deletedIncidentHistory(db, "acme", "inc-1")).toBeNull();
  });

  it("move the archive's revision and change log with every version written", async () => {
    expect(await getArchiveRevision(db)).toBeGreaterThan(0);
    const position = await getArchiveChangePosition(db);
    expect(position).toBeGreaterThan(0);
    const changes = await listArchiveChangesSince(db, 0, 100);
    expect(changes.at(-1)?.seq).toBe(position);
    expect(changes.find((c) => c.providerId === "g-1")).toMatchObject({ vendorSlug: "globex", kinds: ["incident-new"] });
  });
});

describe("search", () => {
  const search = (input: string, filter = {}, page = { limit: 10, offset: 0 }) => searchIncidents(db, words(input), filter, page);

  it("ranks a title match first and marks the matched words", async () => {
    const { hits, more } = await search("errors");
    expect(hits.map((h) => h.providerId)).toEqual(["inc-1", "inc-2"]);
    expect(more).toBe(false);
    expect(marked(hits[0]?.snippet ?? "")).toContain("<mark>errors</mark>");
    expect(hits[0]).toMatchObject({ vendorSlug: "acme", vendorName: "acme Corp", impact: "major", earlierSeq: null });
    expect(marked((await search("expired certif*")).hits[0]?.snippet ?? "")).toMatch(/<mark>expired<\/mark> TLS <mark>certificate<\/mark>/);
  });

  it("filters by vendor and period, and pages", async () => {
    expect((await search("errors", { vendor: "globex" })).hits).toEqual([]);
    expect((await search("errors", { from: AT(2) })).hits.map((h) => h.providerId)).toEqual(["inc-2"]);
    expect((await search("errors", { to: AT(2) })).hits.map((h) => h.providerId)).toEqual(["inc-1"]);
    const first = await search("errors", {}, { limit: 1, offset: 0 });
    expect(first).toMatchObject({ more: true, hits: [{ providerId: "inc-1" }] });
    expect((await searchCurrentText(db, words("errors"), {}, { limit: 1, offset: 1 })).hits.map((h) => h.providerId)).toEqual(["inc-2"]);
  });

  it("finds words only an earlier version said, after every current match, with that version", async () => {
    const { hits } = await search("west");
    expect(hits).toHaveLength(1);
    expect(hits[0]).toMatchObject({ providerId: "inc-1", earlierSeq: 1 });
    expect(marked(hits[0]?.snippet ?? "")).toContain("eu-<mark>west</mark>-2");
    const mixed = await search("affected");
    expect(mixed.hits.map((h) => [h.providerId, h.earlierSeq])).toEqual([["g-1", null], ["inc-1", 1]]);
    expect((await search("affected", {}, { limit: 1, offset: 1 })).hits.map((h) => h.providerId)).toEqual(["inc-1"]);
    expect((await search("nothing")).hits).toEqual([]);
  });
});

describe("vendor pages", () => {
  it("name vendors in case-blind order and find unknown slugs", async () => {
    expect(await listVendorNames(db)).toEqual([{ slug: "acme", name: "acme Corp" }, { slug: "globex", name: "Globex" }]);
    expect(await findUnknownVendor(db, ["acme", "initech", "globex"])).toBe("initech");
    expect(await findUnknownVendor(db, ["globex"])).toBeNull();
  });

  it("group unresolved incidents, list them with those without a start last, and read each source's standing", async () => {
    const groups = await listUnresolvedGroups(db);
    expect(groups.get(1)).toEqual([expect.objectContaining({ source: "https://acme.test/api", count: 1, impact: "minor", presence: "listed" })]);
    expect(groups.get(2)).toEqual([expect.objectContaining({ count: 2, impact: "critical" })]);
    expect((await listUnresolvedIncidents(db, 1)).map((r) => r.providerId)).toEqual(["inc-2"]);
    expect((await listUnresolvedIncidents(db, 2)).map((r) => r.providerId)).toEqual(["g-1", "g-2"]);
    const standings = await listSourceStandings(db, 1, () => null);
    expect(standings).toEqual([{ source: "https://acme.test/api", feed: null, lastGoodAt: AT(5, 1), lastAttemptAt: AT(6, 1), lastOutcome: "failed" }]);
    expect(await lastGoodCaptureAt(db, 2, "feed.json")).toBe(AT(4, 1));
  });

  it("give each vendor's overview: open incidents, its last incident, polling", async () => {
    const overviews = await listVendorOverviews(db, new Date(AT(6, 3)), { profileOf: () => null, defaultIntervalMs: 300_000 });
    expect(overviews.map((o) => o.slug)).toEqual(["acme", "globex"]);
    expect(overviews[0]).toMatchObject({ polled: true, lastIncident: { providerId: "inc-3" }, incidentsLast90Days: 2, poll: { lastOutcome: "failed", failures: 1 } });
    expect(overviews[1]).toMatchObject({ polled: false, poll: null, lastIncident: { providerId: "g-1" } });
  });

  it("know which archive addresses name something", async () => {
    expect(await archivePathExists(db, "/vendors/acme")).toBe(true);
    expect(await archivePathExists(db, "/vendors/initech")).toBe(false);
    expect(await archivePathExists(db, "/vendors/acme/incidents/inc-1")).toBe(true);
    expect(await archivePathExists(db, "/vendors/acme/incidents/inc-1/versions/2")).toBe(true);
    expect(await archivePathExists(db, "/vendors/acme/incidents/inc-1/versions/3")).toBe(false);
    expect(await archivePathExists(db, "/elsewhere")).toBe(true);
  });
});

describe("operator pages", () => {
  it("say each vendor's polling, failing ones first, and each source's", async () => {
    const status = await listVendorPollStatus(db);
    expect(status.map((s) => s.slug)).toEqual(["acme", "globex"]);
    expect(status[0]).toMatchObject({ enabled: true, lastOutcome: "failed", failingSince: AT(6, 1), captures: 5, captureRows: 5, failedCaptures: 1, versions: 5 });
    expect(status[1]).toMatchObject({ enabled: false, consecutiveFailures: 0, capturesWithWarnings: 1, versions: 2 });
    expect(await listSourceStatus(db)).toEqual([
      { vendorSlug: "acme", source: "https://acme.test/api", platform: "statuspage", lastPolledAt: AT(6, 1), lastChangedAt: AT(5, 1), lastFailedAt: null, lastFailure: "HTTP 503", observations: 5, runs: 5 },
    ]);
  });

  it("say how the supervised processes restarted, what captures could not read, and which subscriptions are in trouble", async () => {
    expect(await listProcessStatus(db, AT(5))).toEqual([
      { process: "poller", restarts: 1, lastRestartAt: AT(6, 2), lastStartedAt: AT(6), gaveUpAt: null, lastCrash: "code 1, up 3 s" },
    ]);
    expect(await listCaptureWarnings(db, 5)).toEqual([
      { id: 4, vendorSlug: "globex", source: "feed.json", observedAt: AT(4, 1), count: 1, warnings: [{ path: "$.incidents[0]", message: "no id" }] },
    ]);
    expect(await listRawRetention(db)).toEqual([]);
    expect((await listTroubledSubscriptions(db)).map((s) => [s.id, s.status, s.disabledReason])).toEqual([["s1", "disabled", "gone"]]);
  });

  it("measure where the bytes are, per table and per vendor", async () => {
    const stats = await readStorageStats(db);
    expect(stats.tables.find((t) => t.name === "incident_versions")?.rows).toBe(7);
    const figures = stats.vendors.map((v) => [v.slug, v.parts.versions.rows, v.parts.captures.rows, v.rawBytes]);
    expect(figures.sort()).toEqual([["acme", 5, 5, 490], ["globex", 2, 1, 90]]);
    expect(stats.rawBytes).toBe(580);
    expect(stats.databaseBytes).toBeGreaterThanOrEqual(stats.tables.reduce((n, t) => n + t.tableBytes + t.indexBytes, 0));
  });
});
