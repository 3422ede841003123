import { decodeBody, encodeDelta } from "@/db/history/body-codec";
import { type PackedJson, unpackJson } from "@/db/history/packed-json";
import { applyJsonPatch, type JsonPatch, type JsonValue } from "@/lib/json-patch";

/**
 * An incident's stored versions and record states form a chain: the latest row and checkpoints
 * hold the full JSON; any other row holds a zstd delta of its text against the NEXT row's text
 * (a Buffer: decoded backwards from the nearest full row after it). Rows written before reverse
 * deltas hold a lib/json-patch text (a string) from the row before, decoded forwards. A chain
 * is written so that a reverse delta is never followed by a forward patch.
 */

/** What a patch column holds: a forward JSON patch (string, written before) or a reverse zstd delta. */
export type StoredPatch = string | Buffer;

export interface ChainRow {
  full: PackedJson | null;
  patch: StoredPatch | null;
}

export class DeltaChainError extends Error {
  readonly kind = "delta-chain";
}

const ZSTD_MAGIC = Buffer.from([0x28, 0xb5, 0x2f, 0xfd]);

export function isZstdFrame(value: Uint8Array): boolean {
  return value.byteLength >= 4 && Buffer.from(value.buffer, value.byteOffset, 4).equals(ZSTD_MAGIC);
}

/** `text` stored as a delta against the text of the row after it (level 9, as bodies: 19 gains at most 3% here, docs/decisions/0018). */
export function encodeReverseDelta(next: string, text: string): Buffer {
  return encodeDelta(Buffer.from(next, "utf8"), Buffer.from(text, "utf8"));
}

export function decodeReverseDelta(next: string, delta: Buffer): string {
  return decodeBody("zstd-delta", delta, Buffer.from(next, "utf8")).toString("utf8");
}

function applyForward(before: string, patch: string): string {
  return JSON.stringify(applyJsonPatch(JSON.parse(before) as JsonValue, JSON.parse(patch) as JsonPatch));
}

/** The text of `rows[target]`, where `rows` run from a full row (or the first) to a full row (or the last) around it. */
export function resolveRow(rows: readonly ChainRow[], target: number, describe: () => string): string {
  const row = rows[target];
  if (!row) throw new DeltaChainError(`store: ${describe()} is not in its chain`);
  if (row.full !== null) return unpackJson(row.full);
  if (Buffer.isBuffer(row.patch)) {
    let end = target + 1;
    while (end < rows.length && rows[end]?.full === null) end += 1;
    const last = rows[end];
    if (!last || last.full === null) throw new DeltaChainError(`store: ${describe()} has no full row after it to decode from`);
    let text = unpackJson(last.full);
    for (let i = end - 1; i >= target; i -= 1) {
      const patch = rows[i]?.patch;
      if (!Buffer.isBuffer(patch)) throw new DeltaChainError(`store: ${describe()} is followed by a row that is not a reverse delta`);
      text = decodeReverseDelta(text, patch);
    }
    return text;
  }
  let start = target - 1;
  while (start >= 0 && rows[start]?.full === null) start -= 1;
  const first = rows[start];
  if (!first || first.full === null) throw new DeltaChainError(`store: ${describe()} has no full row before it to patch from`);
  let text = unpackJson(first.full);
  for (let i = start + 1; i <= target; i += 1) {
    const patch = rows[i]?.patch;
    if (typeof patch !== "string") throw new DeltaChainError(`store: ${describe()} is preceded by a row that is not a forward patch`);
    text = applyForward(text, patch);
  }
  return text;
}

/** The text of every row of a chain, in order (the rows must start and end at full rows, or the chain's ends). */
export function resolveChain(rows: readonly ChainRow[], describe: (index: number) => string): string[] {
  const texts: Array<string | undefined> = new Array<string | undefined>(rows.length);
  for (let i = rows.length - 1; i >= 0; i -= 1) {
    const row = rows[i];
    if (!row) continue;
    if (row.full !== null) texts[i] = unpackJson(row.full);
    else if (Buffer.isBuffer(row.patch)) {
      const next = texts[i + 1];
      if (next === undefined) throw new DeltaChainError(`store: ${describe(i)} has no decodable row after it`);
      texts[i] = decodeReverseDelta(next, row.patch);
    }
  }
  return rows.map((row, i) => {
    const known = texts[i];
    if (known !== undefined) return known;
    const before = texts[i - 1];
    if (before === undefined || typeof row.patch !== "string") throw new DeltaChainError(`store: ${describe(i)} has neither a full copy nor a patch to rebuild from`);
    const text = applyForward(before, row.patch);
    texts[i] = text;
    return text;
  });
}
