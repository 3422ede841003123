import { afterAll, beforeAll, expect, it } from "vitest";
import { closeDatabase, closeStore, openDatabase, openStore, type RedlineDb } from "@/db/client";
import { versionsOfCapture } from "@/db/queries/capture-versions";
import { type ChangeFilter, listChangeDetails, listChanges } from "@/db/queries/changes";
import { deletedIncidentHistory } from "@/db/queries/deleted-incidents";
import { type IncidentListFilter, listIncidents } from "@/db/queries/incident-list";
import { listCaptureWarnings, listSourceStatus, listVendorPollStatus } from "@/db/queries/operator-status";
import { type Cursor, decodeCursor } from "@/db/driver/prepared";
import { searchIncidents, toFtsQuery } from "@/db/queries/search";
import { readStorageStats, type StorageStats, VENDOR_PARTS } from "@/db/queries/storage-stats";
import { listVendorNames } from "@/db/queries/vendor-names";
import { listSourceStandings, listUnresolvedGroups, listUnresolvedIncidents } from "@/db/queries/vendor-now";
import { getArchivedInstants, listComponentNames, listIncidentFacts, listStatuses, listVendorIncidents } from "@/db/queries/vendor-profile";
import { listVendorOverviews } from "@/db/queries/vendors-overview";
import { unpackSearchText } from "@/db/search/search-text";
import { archiveAcmeLifecycle } from "@/tests/support/acme-archive";
import { importCorpusFolder } from "@/tests/support/body-store";
import { corpusAvailable } from "@/tests/support/corpus";
import { describePostgres, runPostgresCluster } from "@/tests/support/postgres";

/** The tables the read queries read, in an order their foreign keys accept. */
const TABLES = ["vendors", "capture_bodies", "captures", "sources", "poll_state", "incidents", "incident_components", "incident_versions", "version_kinds", "watchlists", "watchlist_members"];

/** Every row the reads need, copied from a SQLite archive as the recording path would have written them on PostgreSQL. */
async function copyArchive(from: RedlineDb, to: RedlineDb): Promise<void> {
  const bytea = new Set(
    (await to.connection.prepare<[], { name: string }>("SELECT table_name || '.' || column_name AS name FROM information_schema.columns WHERE data_type = 'bytea' AND table_schema = current_schema()").all()).map((r) => r.name),
  );
  for (const table of TABLES) {
    const rows = from.$client.prepare(`SELECT * FROM ${table}`).all() as Array<Record<string, unknown>>;
    const [first] = rows;
    if (!first) continue;
    const columns = Object.keys(first);
    const insert = to.connection.prepare(`INSERT INTO ${table} (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`);
    for (const row of rows) {
      await insert.run(...columns.map((c) => (bytea.has(`${table}.${c}`) && typeof row[c] === "string" ? Buffer.from(row[c], "utf8") : row[c])));
    }
  }
  const texts = from.$client.prepare<[], { id: number; body: Buffer }>("SELECT incident_id AS id, body FROM incident_search_text").all();
  for (const { id, body } of texts) {
    await to.connection.prepare("INSERT INTO incident_search (incident_id, title, updates, postmortem) VALUES (?, ?, ?, ?)").run(id, ...unpackSearchText(body));
  }
  for (const { id, removed } of from.$client.prepare<[], { id: number; removed: string }>("SELECT rowid AS id, removed FROM version_search").all()) {
    await to.connection.prepare("INSERT INTO version_search (version_id, removed) VALUES (?, ?)").run(id, removed);
  }
}

describePostgres("the read queries on PostgreSQL, over an archive SQLite recorded", () => {
  let cluster: ReturnType<typeof runPostgresCluster>;
  let sqlite: RedlineDb;
  let pg: RedlineDb;
  let url: string;

  beforeAll(async () => {
    cluster = runPostgresCluster();
    sqlite = openDatabase(":memory:");
    await archiveAcmeLifecycle(sqlite);
    if (corpusAvailable) {
      await importCorpusFolder(sqlite, "gcp-incidents", { slice: [0, 30] });
      await importCorpusFolder(sqlite, "atom-github-history", { slice: [0, 60] });
    }
    url = await cluster.createDatabase("read_parity");
    pg = await openStore(url);
    await copyArchive(sqlite, pg);
  }, 120_000);

  afterAll(async () => {
    closeDatabase(sqlite);
    await closeStore(pg);
    await cluster.dropDatabase(url);
  });

  /** The same read on both databases, and its answer from SQLite. */
  async function same<T>(read: (db: RedlineDb) => Promise<T>): Promise<T> {
    const expected = await read(sqlite);
    expect(await read(pg)).toEqual(expected);
    return expected;
  }

  const vendorIds = () => sqlite.$client.prepare<[], { id: number; slug: string }>("SELECT id, slug FROM vendors ORDER BY id").all();

  it("list incidents alike, filtered and a page at a time", async () => {
    const filters: IncidentListFilter[] = [
      {}, { impacts: ["major", "unknown"] }, { statuses: ["resolved"] }, { kinds: ["title-changed", "impact-downgraded"] },
      { component: "api" }, { since: "2025-01-01T00:00:00.000Z", until: "2026-06-01T00:00:00.000Z" }, { query: toFtsQuery("outage") ?? "" },
      { vendorIds: vendorIds().slice(0, 2).map((v) => v.id) },
    ];
    for (const filter of filters) {
      let before: Cursor | null = null;
      for (let page = 0; page < 4; page += 1) {
        const found = await same((db) => listIncidents(db, { ...filter, before }, 7));
        if (!found.next) break;
        before = decodeCursor(found.next);
      }
    }
  });

  it("list changes alike, filtered, with their field changes, a page at a time", async () => {
    const [first, second] = vendorIds();
    const filters: ChangeFilter[] = [
      {}, { kinds: ["incident-new", "update-posted"] }, { vendorId: first?.id, kinds: ["status-changed", "incident-resolved"] }, { impacts: ["minor"] },
      { component: "API" }, { components: ["api", "Compute Engine"] }, { query: toFtsQuery("errors") ?? "" }, { since: "2026-01-01T00:00:00.000Z" },
      { watch: [{ vendorId: first?.id ?? 0, components: ["api"] }, { vendorId: second?.id ?? 0, components: null }] },
    ];
    for (const filter of filters) {
      let before: Cursor | null = null;
      for (let page = 0; page < 3; page += 1) {
        const found = await same((db) => listChanges(db, { ...filter, before }, 10));
        if (!found.next) break;
        before = decodeCursor(found.next);
      }
    }
    await same((db) => listChangeDetails(db, {}, 25));
  });

  it("find the same incidents by words, current matches before earlier versions' and each with its words marked", async () => {
    for (const words of ["outage", "errors", "api", "investigat*", "resolved", "degraded performance", "google", "us-central1", "elevated error rates", "nothingmatches"]) {
      const query = toFtsQuery(words) ?? "";
      const read = async (db: RedlineDb) => (await searchIncidents(db, query, {}, { limit: 200, offset: 0 })).hits;
      const [expected, found] = [await read(sqlite), await read(pg)];
      const key = (h: { vendorSlug: string; providerId: string; earlierSeq: number | null }) => `${h.vendorSlug}/${h.providerId}@${h.earlierSeq ?? "now"}`;
      expect(found.map(key).sort(), words).toEqual(expected.map(key).sort());
      // Ranks within a column differ (ts_rank_cd has no IDF): the order is compared only as current, then earlier.
      expect(found.map((h) => h.earlierSeq === null), words).toEqual(expected.map((h) => h.earlierSeq === null));
      for (const h of found) expect(h.snippet, words).toContain("\u0001");
    }
    const filtered = async (db: RedlineDb) => {
      const { hits } = await searchIncidents(db, toFtsQuery("errors") ?? "", { vendor: "google-cloud", from: "2024-06-01T00:00:00.000Z" }, { limit: 200, offset: 0 });
      return hits.map((h) => `${h.vendorSlug}/${h.providerId}`).sort();
    };
    expect((await same(filtered)).length).toBeGreaterThan(0);
    // Pages of one search cover its hits once each, on both.
    const paged = async (db: RedlineDb) => {
      const keys: string[] = [];
      for (let offset = 0; ; offset += 5) {
        const { hits, more } = await searchIncidents(db, toFtsQuery("resolved") ?? "", {}, { limit: 5, offset });
        keys.push(...hits.map((h) => `${h.providerId}@${h.earlierSeq ?? "now"}`));
        if (!more) return keys.sort();
      }
    };
    await same(paged);
  });

  it("count the same rows per table and per vendor", async () => {
    const [lite, post] = [await readStorageStats(sqlite), await readStorageStats(pg)];
    const rows = (stats: StorageStats) => Object.fromEntries(stats.tables.filter((t) => TABLES.includes(t.name)).map((t) => [t.name, t.rows]));
    expect(rows(post)).toEqual(rows(lite));
    const parts = (stats: StorageStats) => stats.vendors.map((v) => [v.slug, v.rawBytes, ...VENDOR_PARTS.filter((p) => p !== "states").map((p) => v.parts[p].rows)]).sort();
    expect(parts(post)).toEqual(parts(lite));
    expect(post.databaseBytes).toBeGreaterThan(0);
    expect(post.tables.reduce((n, t) => n + t.tableBytes + t.indexBytes, 0) + post.freeBytes).toBe(post.databaseBytes);
  });

  it("read vendor pages alike", async () => {
    await same(listVendorNames);
    await same(listUnresolvedGroups);
    const rules = { profileOf: () => null, defaultIntervalMs: 300_000 };
    await same((db) => listVendorOverviews(db, new Date("2026-06-01T00:00:00.000Z"), rules));
    for (const { id } of vendorIds()) {
      await same((db) => listUnresolvedIncidents(db, id));
      await same((db) => listSourceStandings(db, id, () => null));
      await same((db) => listComponentNames(db, id));
      await same((db) => listStatuses(db, id));
      await same((db) => getArchivedInstants(db, id));
      await same((db) => listIncidentFacts(db, id, "2000-01-01T00:00:00.000Z", "2100-01-01T00:00:00.000Z"));
      let before: Cursor | null = null;
      for (let page = 0; page < 3; page += 1) {
        const found = await same((db) => listVendorIncidents(db, id, { before }, 10));
        if (!found.next) break;
        before = decodeCursor(found.next);
      }
      await same((db) => listVendorIncidents(db, id, { impact: "unknown", from: "2025-01-01T00:00:00.000Z" }, 10));
    }
  });

  it("read operator pages, capture versions and deleted incidents alike", async () => {
    await same(listVendorPollStatus);
    await same(listSourceStatus);
    await same((db) => listCaptureWarnings(db, 20));
    const captures = sqlite.$client.prepare<[], { id: number }>("SELECT DISTINCT capture_id AS id FROM incident_versions ORDER BY id LIMIT 20").all();
    for (const { id } of captures) await same((db) => versionsOfCapture(db, id));
    const deleted = sqlite.$client.prepare<[], { slug: string; providerId: string }>(
      "SELECT d.slug, i.provider_id AS providerId FROM incidents i JOIN vendors d ON d.id = i.vendor_id ORDER BY i.presence = 'deleted' DESC, i.id LIMIT 3",
    ).all();
    for (const { slug, providerId } of deleted) await same((db) => deletedIncidentHistory(db, slug, providerId));
  });
});
