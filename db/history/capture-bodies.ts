import { createHash } from "node:crypto";
import { decodeBody, encodeDelta, encodeFull } from "@/db/history/body-codec";
import type { Connection, Nullable, RedlineDb } from "@/db/driver/database";
import type { BodyEncoding } from "@/db/schema";
import { statementsFor } from "@/db/driver/prepared";

/**
 * Raw bodies at rest: each source's bodies as a chain of zstd deltas, each against the body the
 * source stored before it, back to a whole one; past the bounds below, a new stretch starts with
 * a delta against the last stretch's start (docs/decisions/0014-raw-body-deltas.md). Content
 * addressing stays: a body seen again, by any source, is stored once, where it was first stored.
 */

export class BodyStoreError extends Error {
  readonly kind = "store";
}

/** Restoring any body decodes at most this many deltas... */
export const MAX_CHAIN_DEPTH = 32;
/** ...and at most this many raw bytes (long histories of large bodies), a few milliseconds. */
export const MAX_CHAIN_BYTES = 8 * 1024 * 1024;
const DELTA_SURELY_SMALLER = 32;
/** A chain longer than any this code writes is a loop in damaged rows, not a history. */
const MAX_WALK = 10_000;

export interface StoredBodyRow {
  hash: string;
  encoding: BodyEncoding;
  size: number;
  body: Buffer;
  baseHash: string | null;
  depth: number;
  chainBytes: number;
}

/** A body as it will be written: its encoding, and where it sits in its source's chain. */
export interface EncodedBody {
  encoding: "zstd" | "zstd-delta";
  body: Buffer;
  baseHash: string | null;
  depth: number;
  chainBytes: number;
  run: number;
}

/** A stored body as the next one's base: where it sits in its chain, and its content. */
export interface ChainLink {
  hash: string;
  baseHash: string | null;
  depth: number;
  chainBytes: number;
  run: number;
  body: Uint8Array;
}

type LinkRow = Omit<ChainLink, "body">;

interface ChainHead extends LinkRow {
  position: number;
}

function prepare(c: Connection) {
  // Hashes are 32-byte blobs at rest and hex everywhere else: these read and match them as hex.
  const history = c.dialect.history;
  const HEX = `${history.hexOf("b.hash")} AS hash`;
  const BY_HASH = `b.hash = ${history.unhex("?")}`;
  const BASE = `(SELECT ${history.hexOf("p.hash")} FROM capture_bodies p WHERE p.id = b.base_id) AS baseHash`;
  const ROW = `${HEX}, b.encoding, b.size, b.body, ${BASE}, b.depth, b.chain_bytes AS chainBytes`;
  const LINK = `${HEX}, ${BASE}, b.depth, b.chain_bytes AS chainBytes, b.run`;
  const HEAD = (vendorId: string, source: string) =>
    `SELECT ${LINK}, b.position FROM capture_bodies b
     WHERE b.source_id = (SELECT s.id FROM sources s WHERE s.vendor_id = ${vendorId} AND s.url = ${source}) AND b.position IS NOT NULL ORDER BY b.position DESC LIMIT 1`;
  const insertBody = (position: string) =>
    `INSERT INTO capture_bodies (hash, encoding, size, body, base_id, depth, chain_bytes, run, vendor_id, source_id, position)
     VALUES (${history.unhex("@hash")}, @encoding, @size, @body, (SELECT p.id FROM capture_bodies p WHERE p.hash = ${history.unhex("@baseHash")}), @depth, @chainBytes, @run, @vendorId,
       (SELECT s.id FROM sources s WHERE s.vendor_id = @vendorId AND s.url = @source), ${position})
     RETURNING id`;
  return {
    row: c.prepare<[string], StoredBodyRow>(`SELECT ${ROW} FROM capture_bodies b WHERE ${BY_HASH}`),
    head: c.prepare<[number, string], ChainHead>(HEAD("?", "?")),
    // Storing a body: the row of its hash if one is stored, else its source's chain head, in one statement.
    storedOrHead: c.prepare<{ hash: string; vendorId: number; source: string }, { storedId: number | null } & Nullable<ChainHead>>(
      `SELECT (SELECT e.id FROM capture_bodies e WHERE e.hash = ${history.unhex("@hash")}) AS storedId, h.*
       FROM (SELECT 1 AS one) o LEFT JOIN (${HEAD("@vendorId", "@source")}) h ON 1 = 1`,
    ),
    vendorHead: c.prepare<[number], ChainHead>(
      `SELECT ${LINK}, b.position FROM capture_bodies b
       WHERE b.vendor_id = ? AND b.position IS NOT NULL ORDER BY b.position DESC LIMIT 1`,
    ),
    insert: c.prepare<{ hash: string; size: number; vendorId: number | null; source: string | null; position: number | null } & EncodedBody, { id: number }>(insertBody("@position")),
    // At the end of the vendor's bodies (nextPosition), in the same statement.
    append: c.prepare<{ hash: string; size: number; vendorId: number; source: string } & EncodedBody, { id: number }>(
      insertBody("(SELECT coalesce(max(e.position), 0) + 1 FROM capture_bodies e WHERE e.vendor_id = @vendorId)"),
    ),
    link: c.prepare<[string], LinkRow>(`SELECT ${LINK} FROM capture_bodies b WHERE ${BY_HASH}`),
    // The body `run` bases back from one, in one statement: none when the chain ends first.
    linkBack: c.prepare<{ hash: string; run: number }, LinkRow>(
      `WITH RECURSIVE walk(id, steps) AS (
         SELECT b.base_id, 1 FROM capture_bodies b WHERE b.hash = ${history.unhex("@hash")}
         UNION ALL
         SELECT p.base_id, w.steps + 1 FROM walk w JOIN capture_bodies p ON p.id = w.id WHERE w.steps < @run
       )
       SELECT ${LINK} FROM walk JOIN capture_bodies b ON b.id = walk.id WHERE walk.steps = @run`,
    ),
    captureBody: c.prepare<[number], { bodyHash: string | null }>(
      `SELECT (SELECT ${history.hexOf("b.hash")} FROM capture_bodies b WHERE b.id = c.body_id) AS bodyHash FROM captures c WHERE c.id = ?`,
    ),
    capturesOf: c.prepare<[string], { id: number }>(
      `SELECT c.id FROM captures c WHERE c.body_id = (SELECT b.id FROM capture_bodies b WHERE ${BY_HASH}) ORDER BY c.id LIMIT 3`,
    ),
  };
}

const bodyStatements = statementsFor(prepare);

const REMEMBERED_SOURCES = 256;
/** The last body each source stored on this connection: its next base, without a walk. */
const lastStored = new WeakMap<Connection, Map<string, { hash: string; body: Uint8Array }>>();

export function sha256Hex(body: Uint8Array): string {
  return createHash("sha256").update(body).digest("hex");
}

/** The error names the captures that point at the body, so an operator knows what is lost. */
async function damaged(db: RedlineDb, hash: string, what: string, cause?: unknown): Promise<BodyStoreError> {
  const ids = (await bodyStatements(db).capturesOf.all(hash)).map((r) => r.id);
  const of = ids.length > 0 ? `capture ${ids.join(", ")}${ids.length === 3 ? " …" : ""}` : "no capture";
  return new BodyStoreError(`store: raw body ${hash} (of ${of}) ${what}`, cause === undefined ? undefined : { cause });
}

/**
 * Restore a raw body by its hash: decode from its chain's whole body through each delta, then
 * check it against the hash. `known` holds bodies already restored (and checked) by the caller.
 */
export async function restoreBody(db: RedlineDb, hash: string, known?: ReadonlyMap<string, Uint8Array>): Promise<Buffer> {
  const st = bodyStatements(db);
  const chain: StoredBodyRow[] = [];
  let base: Uint8Array | null = null;
  for (let at: string | null = hash; at !== null;) {
    // The asked-for row is always read, so a body is never restored that the database no longer holds.
    const cached: Uint8Array | undefined = chain.length > 0 ? known?.get(at) : undefined;
    if (cached) {
      base = cached;
      break;
    }
    const row: StoredBodyRow | undefined = await st.row.get(at);
    if (!row) throw chain.length === 0 ? new BodyStoreError(`store: raw body ${hash} is missing`) : await damaged(db, hash, `has lost its base ${at}`);
    chain.push(row);
    if (chain.length > MAX_WALK) throw await damaged(db, hash, "has a delta chain that loops");
    if (row.encoding !== "zstd-delta") break;
    if (row.baseHash === null) throw await damaged(db, hash, `is a delta without a base (row ${row.hash})`);
    at = row.baseHash;
  }
  let current = base;
  for (let i = chain.length - 1; i >= 0; i -= 1) {
    const row = chain[i] as StoredBodyRow;
    try {
      current = decodeBody(row.encoding, row.body, current);
    } catch (error) {
      throw await damaged(db, hash, `cannot be decoded (${row.encoding} row ${row.hash}: ${(error as Error).message})`, error);
    }
  }
  const restored = Buffer.from(current ?? new Uint8Array(0));
  const actual = sha256Hex(restored);
  if (actual !== hash) throw await damaged(db, hash, `restored to ${restored.byteLength} bytes of sha256 ${actual}, not its own: its stored rows are damaged`);
  return restored;
}

/** The raw body a capture kept, restored and checked against its hash; null when it kept none. */
export async function restoreCaptureBody(db: RedlineDb, captureId: number): Promise<Buffer | null> {
  const row = await bodyStatements(db).captureBody.get(captureId);
  if (!row) throw new BodyStoreError(`store: no capture ${captureId}`);
  return row.bodyHash === null ? null : restoreBody(db, row.bodyHash);
}

/** Restored bodies kept for a run of reads: captures of one source in order share their chain. */
const READER_CACHE = 8;

/** A reader for a run of body reads (re-derivation), each decode starting from the last bodies it restored. */
export function bodyReader(db: RedlineDb): (hash: string) => Promise<Buffer> {
  const recent = new Map<string, Uint8Array>();
  return async (hash) => {
    const body = await restoreBody(db, hash, recent);
    recent.delete(hash);
    recent.set(hash, body);
    if (recent.size > READER_CACHE) recent.delete(recent.keys().next().value as string);
    return body;
  };
}

/**
 * Encode a body after `head` in its chain: a delta against it while restoring stays within
 * bounds; past them, a delta against the start of the head's stretch (a new stretch, restored
 * through fewer, larger deltas); else a whole body. A delta is kept only when it is smaller.
 */
export async function encodeInChain(body: Uint8Array, head: ChainLink | null, stretchStartOf: (head: ChainLink) => Promise<ChainLink | null>): Promise<EncodedBody> {
  const whole = (): EncodedBody => ({ encoding: "zstd", body: encodeFull(body), baseHash: null, depth: 0, chainBytes: body.byteLength, run: 0 });
  const fits = (base: ChainLink) => base.depth + 1 <= MAX_CHAIN_DEPTH && base.chainBytes + body.byteLength <= MAX_CHAIN_BYTES;
  const against = (base: ChainLink, run: number): EncodedBody => {
    const delta: EncodedBody = {
      encoding: "zstd-delta", body: encodeDelta(base.body, body), baseHash: base.hash, depth: base.depth + 1, chainBytes: base.chainBytes + body.byteLength, run,
    };
    // Whole status bodies compress 5 to 10-fold: a delta this small is kept without compressing the whole to compare.
    if (delta.body.byteLength * DELTA_SURELY_SMALLER < body.byteLength) return delta;
    const full = whole();
    return delta.body.byteLength < full.body.byteLength ? delta : full;
  };
  if (!head) return whole();
  if (fits(head)) return against(head, head.run + 1);
  const start = head.run > 0 ? await stretchStartOf(head) : head;
  return start && fits(start) ? against(start, 0) : whole();
}

/**
 * Where a link's stretch starts: `run` bases back, read in one statement. `known` holds links not
 * yet written as such (a conversion batch), walked one by one; a link that cannot be followed (rows
 * re-based since) ends the walk.
 */
export async function stretchStart(db: RedlineDb, head: ChainLink, known?: ReadonlyMap<string, ChainLink>): Promise<ChainLink | null> {
  const st = bodyStatements(db);
  let link: LinkRow | undefined = head;
  if (!known) link = head.run > 0 ? await st.linkBack.get({ hash: head.hash, run: head.run }) : head;
  else for (let i = 0; i < head.run && link; i += 1) link = link.baseHash === null ? undefined : (known.get(link.baseHash) ?? (await st.link.get(link.baseHash)));
  if (!link) return null;
  const body = known?.get(link.hash)?.body ?? (await restoreBody(db, link.hash));
  return { ...link, body };
}

/**
 * The body the next one of a source is a delta against, with its content: the last its chain
 * holds, else (a source's first body, as with one endpoint per incident) the vendor's last.
 */
export async function chainHead(db: RedlineDb, vendorId: number, source: string, { ownOnly = false, own }: { ownOnly?: boolean; own?: ChainHead | null } = {}): Promise<ChainLink | null> {
  const st = bodyStatements(db);
  const head = (own === undefined ? await st.head.get(vendorId, source) : (own ?? undefined)) ?? (ownOnly ? undefined : await st.vendorHead.get(vendorId));
  if (!head) return null;
  const remembered = lastStored.get(db.connection)?.get(`${vendorId}\0${source}`);
  return { ...head, body: remembered?.hash === head.hash ? remembered.body : await restoreBody(db, head.hash) };
}

/** The chain head read beside a hash, when the source has one. */
function ownHead(found: Nullable<ChainHead> | undefined): ChainHead | null {
  if (!found || found.hash === null || found.depth === null || found.chainBytes === null || found.run === null || found.position === null) return null;
  return { hash: found.hash, baseHash: found.baseHash, depth: found.depth, chainBytes: found.chainBytes, run: found.run, position: found.position };
}

/** Positions count a vendor's stored bodies, so its last one is found across its sources. */
export async function nextPosition(db: RedlineDb, vendorId: number): Promise<number> {
  return ((await bodyStatements(db).vendorHead.get(vendorId))?.position ?? 0) + 1;
}

/**
 * Store a raw body at the end of its source's chain (the source registered first), unless a body
 * of that hash is stored already (by any source); returns its row id. Runs inside the caller's transaction.
 */
export async function storeBody(db: RedlineDb, owner: { vendorId: number; source: string }, hash: string, body: Uint8Array): Promise<number> {
  const st = bodyStatements(db);
  const found = await st.storedOrHead.get({ hash, vendorId: owner.vendorId, source: owner.source });
  if (found?.storedId != null) return found.storedId;
  if (sha256Hex(body) !== hash) throw new BodyStoreError(`store: a body of vendor ${owner.vendorId} from ${owner.source} does not match its hash ${hash}`);
  const head = await chainHead(db, owner.vendorId, owner.source, { own: ownHead(found) });
  const encoded = await encodeInChain(body, head, (h) => stretchStart(db, h));
  const inserted = await st.append.get({ hash, size: body.byteLength, ...encoded, vendorId: owner.vendorId, source: owner.source });
  if (!inserted) throw new BodyStoreError(`store: unable to store a body of vendor ${owner.vendorId} from ${owner.source}`);
  let bySource = lastStored.get(db.connection);
  if (!bySource) {
    bySource = new Map();
    lastStored.set(db.connection, bySource);
  }
  const key = `${owner.vendorId}\0${owner.source}`;
  bySource.delete(key);
  bySource.set(key, { hash, body });
  if (bySource.size > REMEMBERED_SOURCES) bySource.delete(bySource.keys().next().value as string);
  return inserted.id;
}
