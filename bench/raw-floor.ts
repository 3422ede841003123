/**
 * What any raw layer must keep of a history: its distinct bodies in the order first seen, as one
 * text compressed by zstd at its highest level with a 128 MB window and long-distance matching,
 * so every body is matched against all before it. No row, index, page or hash is counted, and one
 * stream admits no restore of a single body short of decompressing it from the start: no layout
 * that keeps raw bodies restorable goes below it.
 */
import { createHash } from "node:crypto";
import { compress } from "zstd-napi";

export function rawFloorBytes(bodies: readonly Uint8Array[]): number {
  const seen = new Set<string>();
  const distinct: Uint8Array[] = [];
  for (const body of bodies) {
    const hash = createHash("sha256").update(body).digest("hex");
    if (body.byteLength === 0 || seen.has(hash)) continue;
    seen.add(hash);
    distinct.push(body);
  }
  return compress(Buffer.concat(distinct), { compressionLevel: 19, windowLog: 27, enableLongDistanceMatching: true }).byteLength;
}
