import { describe, expect, it } from "vitest";
import { openDatabase, type RedlineDb } from "@/db/client";
import { searchIncidents, toFtsQuery } from "@/db/queries/search";
import { SEARCH_SEGMENT_LIMIT, searchSegmentCount } from "@/db/sqlite/search-upkeep";
import { ensureVendor } from "@/db/settings/vendors";
import { ingestSnapshot } from "@/scrapers/ingest/ingest-snapshot";
import { describeSearchUpkeep, SearchUpkeepTimer, tidySearchIndex } from "@/scrapers/poller/search-upkeep";
import { makeIncident, makeUpdate } from "@/tests/support/incidents";
import { makeTestPlatform, snapshotBody } from "@/tests/support/test-platform";

const WORDS = ["replication", "lag", "certificate", "expired", "pool", "failover", "webhook", "latency", "outage", "queue"];

/**
 * Index texts the way the write path does (delete, then insert, through incident_search_text's
 * triggers), each in its own transaction, rewriting earlier incidents as edits do, until the index
 * has more segments than the upkeep lets stand.
 */
function driftedIndex(): RedlineDb {
  const db = openDatabase(":memory:");
  const sqlite = db.$client;
  const remove = sqlite.prepare<[number]>("DELETE FROM incident_search_text WHERE incident_id = ?");
  const insert = sqlite.prepare<[number, string, string, string]>("INSERT INTO incident_search_text (incident_id, body) VALUES (?, redline_search_pack(?, ?, ?))");
  for (let i = 1; i <= 400 && searchSegmentCount(sqlite) <= SEARCH_SEGMENT_LIMIT; i += 1) {
    const id = i % 3 === 0 ? i - 2 : i;
    sqlite.transaction(() => {
      remove.run(id);
      insert.run(id, `Incident ${i}: ${WORDS[i % WORDS.length]}`, `${WORDS[(i * 7) % WORDS.length]} seen at ${i}\n${WORDS[(i * 3) % WORDS.length]} resolved`, i % 5 === 0 ? `postmortem ${WORDS[i % 4]}` : "");
    })();
  }
  return db;
}

/**
 * An archive whose incidents each had a word edited away (a version_search row each), then
 * re-recorded a version at a time as a re-derivation's swap does (delete, then insert, each in its
 * own transaction), until the earlier-version index has more segments than the upkeep lets stand.
 */
async function driftedVersionIndex(): Promise<RedlineDb> {
  const db = openDatabase(":memory:");
  const platform = makeTestPlatform({ kind: "recent", limit: 25 });
  const vendor = await ensureVendor(db, { slug: "acme", name: "Acme", platform: platform.name });
  const said = (word: string) => WORDS.map((w, i) => makeIncident({ id: `inc${i}`, updates: [makeUpdate({ body: `Caused by ${w === word ? "a network fault" : `${w} trouble`}.` })] }));
  await ingestSnapshot(db, { vendor, platform, source: "feed.json", observedAt: "2026-03-01T10:00:00.000Z", body: snapshotBody(said("")) });
  await ingestSnapshot(db, { vendor, platform, source: "feed.json", observedAt: "2026-03-01T10:10:00.000Z", body: snapshotBody(WORDS.map((_, i) => makeIncident({ id: `inc${i}`, updates: [makeUpdate({ body: "Caused by a network fault." })] }))) });
  const sqlite = db.$client;
  const rows = sqlite.prepare<[], { rowid: number; removed: string }>("SELECT rowid, removed FROM version_search ORDER BY rowid").all();
  expect(rows).toHaveLength(WORDS.length);
  const remove = sqlite.prepare<[number]>("DELETE FROM version_search WHERE rowid = ?");
  const insert = sqlite.prepare<[number, string]>("INSERT INTO version_search (rowid, removed) VALUES (?, ?)");
  for (let i = 0; i < 400 && searchSegmentCount(sqlite, "version_search") <= SEARCH_SEGMENT_LIMIT; i += 1) {
    const row = rows[i % rows.length];
    if (row) {
      sqlite.transaction(() => {
        remove.run(row.rowid);
        insert.run(row.rowid, row.removed);
      })();
    }
  }
  return db;
}

function hits(db: RedlineDb, query: string) {
  return db.$client
    .prepare("SELECT rowid, snippet(incident_search, -1, '[', ']', '…', 8) AS snippet FROM incident_search WHERE incident_search MATCH ? ORDER BY bm25(incident_search), rowid")
    .all(query);
}

// Merges FTS5 segments, which only SQLite has: PostgreSQL's GIN indexes need no upkeep of Redline's, and its poller runs none.
describe("search index upkeep (SQLite)", () => {
  it("merges a drifted index into one segment, a step at a time, and every search answers as before", async () => {
    const db = driftedIndex();
    const before = searchSegmentCount(db.$client);
    expect(before).toBeGreaterThan(SEARCH_SEGMENT_LIMIT);
    const answers = WORDS.map((w) => hits(db, `"${w}"`));
    expect(answers.flat().length).toBeGreaterThan(5);
    const upkeep = await tidySearchIndex(db);
    expect(upkeep.incident_search).toMatchObject({ before, after: 1 });
    expect(upkeep.incident_search.steps).toBeGreaterThan(0);
    expect(searchSegmentCount(db.$client)).toBe(1);
    expect(WORDS.map((w) => hits(db, `"${w}"`))).toEqual(answers);
    expect(() => db.$client.prepare("INSERT INTO incident_search (incident_search, rank) VALUES ('integrity-check', 1)").run()).not.toThrow();
  });

  it("merges a drifted earlier-version index into one segment, and edited-away words are found as before", async () => {
    const db = await driftedVersionIndex();
    const before = searchSegmentCount(db.$client, "version_search");
    expect(before).toBeGreaterThan(SEARCH_SEGMENT_LIMIT);
    const search = async (word: string) => (await searchIncidents(db, toFtsQuery(word) ?? "", {}, { limit: 10, offset: 0 })).hits;
    const answers = await Promise.all(WORDS.map(search));
    expect(answers.map((found) => found.map((h) => [h.providerId, h.earlierSeq]))).toEqual(WORDS.map((_, i) => [[`inc${i}`, 1]]));
    const upkeep = await tidySearchIndex(db);
    expect(upkeep.version_search).toMatchObject({ before, after: 1 });
    expect(upkeep.version_search.steps).toBeGreaterThan(0);
    expect(searchSegmentCount(db.$client, "version_search")).toBe(1);
    expect(await Promise.all(WORDS.map(search))).toEqual(answers);
    expect(() => db.$client.prepare("INSERT INTO version_search (version_search, rank) VALUES ('integrity-check', 1)").run()).not.toThrow();
  });

  it("leaves indexes within the limit as they are", async () => {
    const db = openDatabase(":memory:");
    db.$client.prepare("INSERT INTO incident_search_text (incident_id, body) VALUES (1, redline_search_pack('one', 'two', ''))").run();
    db.$client.prepare("INSERT INTO version_search (rowid, removed) VALUES (1, 'three')").run();
    const upkeep = await tidySearchIndex(db);
    expect(upkeep).toEqual({ incident_search: { before: 1, after: 1, steps: 0 }, version_search: { before: 1, after: 1, steps: 0 } });
    expect(describeSearchUpkeep(upkeep)).toBe("search index: 1 segments, left as they are; earlier-version index: 1 segments, left as they are");
  });

  it("runs in the poller at start and logs what it merged", async () => {
    const db = driftedIndex();
    const before = searchSegmentCount(db.$client);
    let logged: (line: string) => void = () => {};
    const line = new Promise<string>((resolve) => (logged = resolve));
    const timer = new SearchUpkeepTimer(db, (l) => logged(l));
    timer.start();
    expect(await line).toMatch(new RegExp(`^search index: ${before} segments merged into 1 in \\d+ steps; earlier-version index: 0 segments, left as they are$`));
    await timer.stop();
  });
});
