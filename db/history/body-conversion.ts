import type Database from "better-sqlite3";
import { gunzipSync } from "node:zlib";
import { decodeBody } from "@/db/history/body-codec";
import { transact } from "@/db/driver/transaction";
import type { RedlineDb } from "@/db/driver/database";
import { BodyStoreError, chainHead, type ChainLink, type EncodedBody, encodeInChain, nextPosition, restoreBody, sha256Hex, stretchStart } from "@/db/history/capture-bodies";

/**
 * Bodies stored whole with gzip, as before deltas, are converted in place into their sources'
 * chains, in the order their captures were recorded. Each batch is encoded outside any
 * transaction and written in one short one, so a poller's writes wait only for the writes; a
 * gzip row stays readable until its batch commits, and a crash leaves the rest for the next run.
 */

export interface ConversionOptions {
  /** Bodies per transaction. */
  batchBodies?: number;
  /** Called after each batch commits. */
  onBatch?: (progress: { converted: number; remaining: number }) => void;
}

interface Pending {
  hash: string;
  vendorId: number | null;
  source: string | null;
  encoded: EncodedBody;
}

const DEFAULT_BATCH = 200;

/** Whether bodies are still keyed by hex hashes (before migration 0020): opening the file converts them. */
export function rawRowsPending(sqlite: Database.Database): boolean {
  return sqlite.prepare("SELECT 1 FROM pragma_table_info('capture_bodies') WHERE name = 'base_hash'").get() !== undefined;
}

export function countLegacyBodies(sqlite: Database.Database): number {
  return sqlite.prepare<[], { n: number }>("SELECT count(*) AS n FROM capture_bodies WHERE encoding = 'gzip'").get()?.n ?? 0;
}

function prepare(sqlite: Database.Database) {
  return {
    // In recording order, each body under the source of the first capture that kept it.
    next: sqlite.prepare<[number, number], { captureId: number; vendorId: number; source: string; hash: string; stored: Buffer }>(
      `SELECT c.id AS captureId, c.vendor_id AS vendorId, c.source, lower(hex(b.hash)) AS hash, b.body AS stored
       FROM captures c JOIN capture_bodies b ON b.id = c.body_id
       WHERE c.id > ? AND c.body_id IS NOT NULL AND b.encoding = 'gzip' ORDER BY c.id LIMIT ?`,
    ),
    orphans: sqlite.prepare<[number], { hash: string; stored: Buffer }>(
      "SELECT lower(hex(hash)) AS hash, body AS stored FROM capture_bodies WHERE encoding = 'gzip' LIMIT ?",
    ),
    isLegacy: sqlite.prepare<[string], { id: number }>("SELECT id FROM capture_bodies WHERE hash = unhex(?) AND encoding = 'gzip'"),
    exists: sqlite.prepare<[string], { id: number }>("SELECT id FROM capture_bodies WHERE hash = unhex(?)"),
    write: sqlite.prepare<{ hash: string; vendorId: number | null; source: string | null; position: number | null } & EncodedBody>(
      `UPDATE capture_bodies SET encoding = @encoding, body = @body, depth = @depth, chain_bytes = @chainBytes, run = @run,
         base_id = (SELECT p.id FROM capture_bodies p WHERE p.hash = unhex(@baseHash)), vendor_id = @vendorId,
         source_id = (SELECT s.id FROM sources s WHERE s.vendor_id = @vendorId AND s.url = @source), position = @position
       WHERE hash = unhex(@hash) AND encoding = 'gzip'`,
    ),
  };
}

function readLegacy(hash: string, stored: Buffer): Buffer {
  const body = gunzipSync(stored);
  if (sha256Hex(body) !== hash) throw new BodyStoreError(`store: raw body ${hash} (gzip) does not match its hash; it was damaged before conversion and is left as it is`);
  return body;
}

/** Encode one batch against each source's chain as it stands, plus the bodies of the batch before it. */
async function encodeBatch(db: RedlineDb, rows: ReadonlyArray<{ vendorId: number | null; source: string | null; hash: string; stored: Buffer }>): Promise<Pending[]> {
  const sourceHeads = new Map<string, ChainLink | null>();
  const vendorHeads = new Map<number, ChainLink>();
  // Bodies of this batch as links: their rows are gzip until it commits.
  const known = new Map<string, ChainLink>();
  const pending: Pending[] = [];
  for (const row of rows) {
    if (known.has(row.hash)) continue;
    const body = readLegacy(row.hash, row.stored);
    let head: ChainLink | null = null;
    const key = `${row.vendorId}\0${row.source}`;
    if (row.vendorId !== null && row.source !== null) {
      if (!sourceHeads.has(key)) sourceHeads.set(key, await chainHead(db, row.vendorId, row.source, { ownOnly: true }));
      head = sourceHeads.get(key) ?? vendorHeads.get(row.vendorId) ?? (await chainHead(db, row.vendorId, row.source));
    }
    const encoded = await encodeInChain(body, head, (h) => stretchStart(db, h, known));
    // Checked before it replaces the only copy.
    const base = encoded.baseHash === null ? null : (known.get(encoded.baseHash)?.body ?? (await restoreBody(db, encoded.baseHash)));
    if (sha256Hex(decodeBody(encoded.encoding, encoded.body, base)) !== row.hash) {
      throw new BodyStoreError(`store: raw body ${row.hash} did not survive re-encoding; it is left as gzip`);
    }
    pending.push({ hash: row.hash, vendorId: row.vendorId, source: row.source, encoded });
    const link: ChainLink = { hash: row.hash, baseHash: encoded.baseHash, depth: encoded.depth, chainBytes: encoded.chainBytes, run: encoded.run, body };
    known.set(row.hash, link);
    if (row.vendorId !== null) {
      sourceHeads.set(key, link);
      vendorHeads.set(row.vendorId, link);
    }
  }
  return pending;
}

/** Write a batch in one transaction; a MovedError when a base was deleted meanwhile (a purge), to encode it again. */
async function writeBatch(db: RedlineDb, st: ReturnType<typeof prepare>, pending: readonly Pending[]): Promise<void> {
  await transact(db, async (tx) => {
    for (const item of pending) {
      if (!st.isLegacy.get(item.hash)) continue;
      if (item.encoded.baseHash !== null && !st.exists.get(item.encoded.baseHash)) throw new MovedError();
      const position = item.vendorId === null ? null : await nextPosition(tx, item.vendorId);
      st.write.run({ hash: item.hash, vendorId: item.vendorId, source: item.source, position, ...item.encoded });
    }
  }, { immediate: true });
}

class MovedError extends Error {
  readonly kind = "moved";
}

/** Convert every gzip body to the delta layout (SQLite files of an earlier Redline only); returns how many were converted. */
export async function convertLegacyBodies(db: RedlineDb, options: ConversionOptions = {}): Promise<number> {
  const sqlite = db.$client;
  const st = prepare(sqlite);
  const batch = options.batchBodies ?? DEFAULT_BATCH;
  let cursor = 0;
  let converted = 0;
  for (;;) {
    const rows = st.next.all(cursor, batch);
    const orphans = rows.length === 0 ? st.orphans.all(batch).map((r) => ({ ...r, vendorId: null, source: null })) : [];
    if (rows.length === 0 && orphans.length === 0) return converted;
    const pending = await encodeBatch(db, rows.length > 0 ? rows : orphans);
    try {
      await writeBatch(db, st, pending);
    } catch (error) {
      if (error instanceof MovedError) continue;
      throw error;
    }
    converted += pending.length;
    const last = rows[rows.length - 1];
    if (last) cursor = last.captureId;
    options.onBatch?.({ converted, remaining: countLegacyBodies(sqlite) });
  }
}
