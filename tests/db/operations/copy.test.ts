import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { deflateRawSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeStore, openDatabase, openStore, type RedlineDb } from "@/db/client";
import { comparable, CopyError, copyArchive, copyPlan, type CopyProgress } from "@/db/operations/copy";
import type { Connection } from "@/db/driver/database";
import { statementShaped } from "@/db/driver/prepared";
import { unpackJson } from "@/db/history/packed-json";
import { packedFromBytes } from "@/db/schema/columns";
import { unpackSearchText } from "@/db/search/search-text";
import { finishJob, queueJob } from "@/db/operations/derivation-jobs";
import { reserveHostSlot } from "@/db/operations/host-slots";
import { enqueueTestMessage, planWaitingMessages } from "@/db/notifications/delivery";
import { fanOutVersions } from "@/db/notifications/outbox";
import { requestPollNow } from "@/db/operations/poll-state";
import { addSubscription } from "@/db/notifications/subscriptions";
import { recordSupervisorEvent } from "@/db/operations/supervisor-events";
import { saveWatchlist } from "@/db/notifications/watchlists";
import { subscriptionFilterSchema } from "@/lib/notify/subscription-filter";
import { archiveAcmeLifecycle } from "@/tests/support/acme-archive";
import { importCorpusFolder, vendorExportJson } from "@/tests/support/body-store";
import { corpusAvailable, CORPUS_DIR, CORPUS_FOLDERS } from "@/tests/support/corpus-location";
import { describePostgres, runPostgresCluster } from "@/tests/support/postgres";

/**
 * `copyArchive` moves a whole archive between databases: every table's rows, the search text in
 * the target's own form, the key counters, and each vendor's export byte for byte the same after.
 */

if (!corpusAvailable) console.warn(`copy tests: no corpus at ${CORPUS_DIR} (set REDLINE_CORPUS): the archive copied is Acme's lifecycle only`);

/** A SQLite archive recorded through the real write paths: Acme's lifecycle, corpus folders, the operator's tables. */
async function recordArchive(db: RedlineDb): Promise<void> {
  // A subscription first: what is recorded after it goes to the outbox, and on to notifications.
  const subscription = await addSubscription(db, { target: "mailto:oncall@example.com", format: "email", filter: subscriptionFilterSchema.parse({}), watchlist: null, digest: null });
  const acme = await archiveAcmeLifecycle(db);
  if (corpusAvailable) {
    await importCorpusFolder(db, "gcp-incidents", { slice: [0, 25] });
    await importCorpusFolder(db, "atom-github-history", { slice: [0, 40] });
    await importCorpusFolder(db, "statuspage-summary-jira", { slice: [0, 20] });
  }
  await fanOutVersions(db);
  await planWaitingMessages(db, "2026-05-01T00:00:00.000Z");
  await enqueueTestMessage(db, subscription.id, "2026-05-01T00:00:00.000Z");
  await saveWatchlist(db, { name: "team", vendors: ["acme"], components: [] });
  await requestPollNow(db, acme.id, "2026-05-01T00:00:00.000Z");
  await reserveHostSlot(db, "https://status.acme.example", 1_000, Date.parse("2026-05-01T00:00:00.000Z"));
  const job = await queueJob(db, acme.id, "parsers changed", null, "2026-05-01T00:00:00.000Z");
  await finishJob(db, job.id, "failed", "a reason with a back\\slash");
  await recordSupervisorEvent(db, { at: "2026-05-01T00:00:00.000Z", process: "web", event: "started", detail: "a back\\slash and \"quotes\"" });
}

async function rowsOf(connection: Connection, table: string, columns: string[], key: string[]): Promise<unknown[][]> {
  const list = columns.map((c, i) => `${c === "rowid" ? c : `"${c}"`} AS c${i}`).join(", ");
  const rows = await statementShaped<[], Record<string, unknown>>(connection, `SELECT ${list} FROM "${table}" ORDER BY ${key.map((k) => (k === "rowid" ? k : `"${k}"`)).join(", ")}`).all();
  return rows.map((r) => columns.map((_, i) => comparable(r[`c${i}`])));
}

/** Every table of the plan, and the search text as [incident, title, updates, postmortem] and [version, removed]. */
async function contents(db: RedlineDb): Promise<Record<string, unknown[][]>> {
  const c = db.connection;
  const out: Record<string, unknown[][]> = {};
  for (const table of copyPlan()) out[table.name] = await rowsOf(c, table.name, table.columns.map((col) => col.name), table.key);
  if (c.dialect.name === "sqlite") {
    const texts = await statementShaped<[], { id: number; body: Buffer }>(c, "SELECT incident_id AS id, body FROM incident_search_text ORDER BY incident_id").all();
    out.incidentSearch = texts.map((t) => [t.id, ...unpackSearchText(t.body)]);
    out.versionSearch = await rowsOf(c, "version_search", ["rowid", "removed"], ["rowid"]);
  } else {
    out.incidentSearch = await rowsOf(c, "incident_search", ["incident_id", "title", "updates", "postmortem"], ["incident_id"]);
    out.versionSearch = await rowsOf(c, "version_search", ["version_id", "removed"], ["version_id"]);
  }
  return out;
}

async function exportsOf(db: RedlineDb): Promise<Record<string, string>> {
  const slugs = await statementShaped<[], { slug: string }>(db.connection, "SELECT slug FROM vendors ORDER BY id").all();
  const out: Record<string, string> = {};
  for (const { slug } of slugs) out[slug] = await vendorExportJson(db, slug);
  return out;
}

/** A copy that stops, as a crash would, once `batches` batches are written. */
function crashAfter(batches: number): (p: CopyProgress) => void {
  let seen = 0;
  return (p) => {
    if (!p.done && ++seen >= batches) throw new Error("crash");
  };
}

class Target {
  constructor(
    readonly open: () => Promise<RedlineDb>,
    readonly drop: () => Promise<void>,
  ) {}
}

/** The behaviour every pair of databases must show; `target()` makes a fresh, migrated, empty one. */
function copyBehaviour(makeTarget: () => Promise<Target>): void {
  let source: RedlineDb;
  let expected: Record<string, unknown[][]>;
  let expectedExports: Record<string, string>;
  const targets: Target[] = [];

  async function fresh(): Promise<RedlineDb> {
    const t = await makeTarget();
    targets.push(t);
    return t.open();
  }

  beforeAll(async () => {
    source = openDatabase(":memory:");
    await recordArchive(source);
    expected = await contents(source);
    expectedExports = await exportsOf(source);
  }, 180_000);

  afterAll(async () => {
    await closeStore(source);
    for (const t of targets) await t.drop();
  });

  it("copies every table's rows, the search text and each vendor's export unchanged", async () => {
    const target = await fresh();
    try {
      const summary = await copyArchive(source, target, { batchSize: 50 });
      expect(summary.rows).toBeGreaterThan(0);
      expect(expected.incidents?.length).toBeGreaterThan(0);
      expect(await contents(target)).toEqual(expected);
      expect(await exportsOf(target)).toEqual(expectedExports);
      // The target takes new rows after the ones it was given, never on their ids.
      await recordSupervisorEvent(target, { at: "2026-06-01T00:00:00.000Z", process: "web", event: "started", detail: "after the copy" });
      const ids = await statementShaped<[], { id: number }>(target.connection, "SELECT id FROM supervisor_events ORDER BY id").all();
      expect(new Set(ids.map((r) => r.id)).size).toBe(ids.length);
    } finally {
      await closeStore(target);
    }
  }, 180_000);

  it("resumes an interrupted copy where it stopped, without duplicates", async () => {
    const target = await fresh();
    try {
      await expect(copyArchive(source, target, { batchSize: 7, onProgress: crashAfter(5) })).rejects.toThrow("crash");
      const partial = await contents(target);
      expect(partial.vendors?.length).toBeGreaterThan(0);
      await expect(copyArchive(source, target, { batchSize: 7, onProgress: crashAfter(3) })).rejects.toThrow("crash");
      const seen: CopyProgress[] = [];
      await copyArchive(source, target, { batchSize: 7, onProgress: (p) => seen.push(p) });
      expect(seen.some((p) => p.resumed > 0)).toBe(true);
      expect(await contents(target)).toEqual(expected);
      expect(await exportsOf(target)).toEqual(expectedExports);
      // Run once more over a finished copy: nothing more is written.
      const again = await copyArchive(source, target, { batchSize: 7 });
      expect(again.tables.filter((t) => !["archive_revision", "archive_changes"].includes(t.table)).reduce((n, t) => n + t.copied, 0)).toBe(0);
      expect(await contents(target)).toEqual(expected);
    } finally {
      await closeStore(target);
    }
  }, 300_000);

  it("refuses a target holding another archive, and leaves it as it was", async () => {
    const target = await fresh();
    try {
      const other = openDatabase(":memory:");
      try {
        await recordSupervisorEvent(other, { at: "2026-05-01T00:00:00.000Z", process: "poller", event: "started", detail: "other" });
        await copyArchive(other, target);
      } finally {
        await closeStore(other);
      }
      const before = await contents(target);
      await expect(copyArchive(source, target)).rejects.toThrow(CopyError);
      await expect(copyArchive(source, target)).rejects.toThrow(/holds a different archive/);
      expect(await contents(target)).toEqual(before);
    } finally {
      await closeStore(target);
    }
  }, 120_000);

  it("fails a resumed copy whose source lost rows since it was interrupted, rather than keep them", async () => {
    const changing = openDatabase(":memory:");
    const target = await fresh();
    try {
      await archiveAcmeLifecycle(changing);
      for (const detail of ["first", "second", "third"]) await recordSupervisorEvent(changing, { at: "2026-05-01T00:00:00.000Z", process: "web", event: "started", detail });
      const search = target.connection.dialect.name === "postgres" ? "incident_search" : "incident_search_text";
      const stopAtSearch = (p: CopyProgress) => {
        if (p.table === search) throw new Error("crash");
      };
      await expect(copyArchive(changing, target, { onProgress: stopAtSearch })).rejects.toThrow("crash");
      await statementShaped(changing.connection, "DELETE FROM supervisor_events WHERE detail = 'first'").run();
      await expect(copyArchive(changing, target)).rejects.toThrow(/supervisor_events has 3 rows, the source's 2: the source changed/);
    } finally {
      await closeStore(changing);
      await closeStore(target);
    }
  }, 120_000);

  it("refuses to copy a database onto itself", async () => {
    await expect(copyArchive(source, source)).rejects.toThrow(/the same database/);
  });
}

describe("copying a SQLite archive to another SQLite file", () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "redline-copy-"));
  let n = 0;
  afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));
  copyBehaviour(async () => {
    const file = path.join(folder, `target-${++n}.db`);
    return new Target(
      () => openStore(file),
      async () => undefined,
    );
  });
});

describePostgres("copying a SQLite archive to PostgreSQL", () => {
  copyBehaviour(async () => {
    const cluster = runPostgresCluster();
    const url = await cluster.createDatabase("redline_copy");
    return new Target(
      () => openStore(url),
      () => cluster.dropDatabase(url),
    );
  });
});

describePostgres("copying an earlier SQLite archive's deflated and plain text rows to PostgreSQL", () => {
  it("packs deflated rows again (bytea keeps no type: deflate bytes would be read as text) and writes text as its bytes", async () => {
    const source = openDatabase(":memory:");
    const cluster = runPostgresCluster();
    const url = await cluster.createDatabase("redline_copy_deflated");
    const target = await openStore(url);
    try {
      await recordArchive(source);
      // As Redline wrote them before the dictionary (decision 0025): long JSON deflated, or plain text.
      let deflated = 0;
      let backslashed = 0;
      for (const [table, column] of [
        ["incident_versions", "snapshot"],
        ["incident_states", "state"],
      ] as const) {
        const rows = source.$client.prepare<[], { id: number; value: string | Buffer }>(`SELECT id, ${column} AS value FROM ${table} WHERE ${column} IS NOT NULL`).all();
        for (const { id, value } of rows) {
          const text = unpackJson(value);
          if (text.length < 256) continue;
          const plain = id % 2 === 1;
          source.$client.prepare(`UPDATE ${table} SET ${column} = ? WHERE id = ?`).run(plain ? text : deflateRawSync(text), id);
          if (plain && text.includes("\\")) backslashed++;
          if (!plain) deflated++;
        }
      }
      expect(deflated).toBeGreaterThan(0);
      expect(backslashed).toBeGreaterThan(0);
      const expectedExports = await exportsOf(source);
      await copyArchive(source, target);
      expect(await exportsOf(target)).toEqual(expectedExports);
      for (const [table, column] of [
        ["incident_versions", "snapshot"],
        ["incident_states", "state"],
      ] as const) {
        const rows = await statementShaped<[], { value: Buffer }>(target.connection, `SELECT ${column} AS value FROM ${table} WHERE ${column} IS NOT NULL`).all();
        for (const { value } of rows) {
          const read = packedFromBytes(value);
          expect(() => JSON.parse(unpackJson(read))).not.toThrow();
        }
      }
    } finally {
      await closeStore(source);
      await closeStore(target);
      await cluster.dropDatabase(url);
    }
  }, 180_000);
});

describePostgres("copying the whole corpus to PostgreSQL", () => {
  it.skipIf(!corpusAvailable)(`gives every corpus vendor the same export${corpusAvailable ? "" : ` (skipped: no corpus at ${CORPUS_DIR}; set REDLINE_CORPUS)`}`, async () => {
    const source = openDatabase(":memory:");
    const cluster = runPostgresCluster();
    const url = await cluster.createDatabase("redline_copy_corpus");
    const target = await openStore(url);
    try {
      for (const { folder } of CORPUS_FOLDERS) await importCorpusFolder(source, folder);
      await copyArchive(source, target);
      for (const { vendor } of CORPUS_FOLDERS) expect(await vendorExportJson(target, vendor), vendor).toBe(await vendorExportJson(source, vendor));
    } finally {
      await closeStore(source);
      await closeStore(target);
      await cluster.dropDatabase(url);
    }
  }, 600_000);
});
