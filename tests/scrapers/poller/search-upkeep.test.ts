import { describe, expect, it } from "vitest";
import type { RedlineDb } from "@/db/client";
import { SEARCH_SEGMENT_LIMIT, searchSegmentCount } from "@/db/search-upkeep";
import { describeSearchUpkeep, SearchUpkeepTimer, tidySearchIndex } from "@/scrapers/poller/search-upkeep";
import { freshDatabase } from "@/tests/support/database";

const WORDS = ["replication", "lag", "certificate", "expired", "pool", "failover", "webhook", "latency", "outage", "queue"];

/**
 * Index texts the way the write path does (delete, then insert, through incident_search_text's
 * triggers), each in its own transaction, rewriting earlier incidents as edits do, until the index
 * has more segments than the upkeep lets stand.
 */
function driftedIndex(): RedlineDb {
  const db = freshDatabase();
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

function hits(db: RedlineDb, query: string) {
  return db.$client
    .prepare("SELECT rowid, snippet(incident_search, -1, '[', ']', '…', 8) AS snippet FROM incident_search WHERE incident_search MATCH ? ORDER BY bm25(incident_search), rowid")
    .all(query);
}

describe("search index upkeep", () => {
  it("merges a drifted index into one segment, a step at a time, and every search answers as before", async () => {
    const db = driftedIndex();
    const before = searchSegmentCount(db.$client);
    expect(before).toBeGreaterThan(SEARCH_SEGMENT_LIMIT);
    const answers = WORDS.map((w) => hits(db, `"${w}"`));
    expect(answers.flat().length).toBeGreaterThan(5);
    const upkeep = await tidySearchIndex(db);
    expect(upkeep).toMatchObject({ before, after: 1 });
    expect(upkeep.steps).toBeGreaterThan(0);
    expect(searchSegmentCount(db.$client)).toBe(1);
    expect(WORDS.map((w) => hits(db, `"${w}"`))).toEqual(answers);
    expect(() => db.$client.prepare("INSERT INTO incident_search (incident_search, rank) VALUES ('integrity-check', 1)").run()).not.toThrow();
  });

  it("leaves an index within the limit as it is", async () => {
    const db = freshDatabase();
    db.$client.prepare("INSERT INTO incident_search_text (incident_id, body) VALUES (1, redline_search_pack('one', 'two', ''))").run();
    const upkeep = await tidySearchIndex(db);
    expect(upkeep).toEqual({ before: 1, after: 1, steps: 0 });
    expect(describeSearchUpkeep(upkeep)).toBe("search index: 1 segments, left as they are");
  });

  it("runs in the poller at start and logs what it merged", async () => {
    const db = driftedIndex();
    const before = searchSegmentCount(db.$client);
    let logged: (line: string) => void = () => {};
    const line = new Promise<string>((resolve) => (logged = resolve));
    const timer = new SearchUpkeepTimer(db, (l) => logged(l));
    timer.start();
    expect(await line).toMatch(new RegExp(`^search index: ${before} segments merged into 1 in \\d+ steps$`));
    await timer.stop();
  });
});
