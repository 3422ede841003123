import { inflateRawSync } from "node:zlib";
import { decodeBody, encodeFull } from "@/db/body-codec";
import type { Change } from "@/lib/change";

/**
 * Full snapshots, record states and version changes are stored zstd-compressed: the JSON of one
 * incident compresses five to seven times, and each is read whole. Text and deflated values
 * written before are read as they are.
 */
export type PackedJson = string | Buffer;

/** Below this, compression saves too little to be worth a decompression on read. */
const MIN_PACKED = 256;
/** A few KB each: level 19 is 6% smaller than 9 and still well under a millisecond (docs/decisions/0018). */
const LEVEL = 19;
const ZSTD_MAGIC = Buffer.from([0x28, 0xb5, 0x2f, 0xfd]);

export function isZstdFrame(value: Uint8Array): boolean {
  return value.byteLength >= 4 && Buffer.from(value.buffer, value.byteOffset, 4).equals(ZSTD_MAGIC);
}

export function packJson(text: string): PackedJson {
  return text.length < MIN_PACKED ? text : encodeFull(Buffer.from(text, "utf8"), LEVEL);
}

export function unpackJson(value: PackedJson): string {
  if (typeof value === "string") return value;
  return (isZstdFrame(value) ? decodeBody("zstd", value, null) : inflateRawSync(value)).toString("utf8");
}

/** Whether a stored value is in the form packJson gives it now. */
export function isPacked(value: PackedJson, text: string): boolean {
  return typeof value === "string" ? text.length < MIN_PACKED : isZstdFrame(value);
}

/** A version's stored `changes`, however it was written: every reader goes through here. */
export function unpackChanges(value: PackedJson | null | undefined): Change[] {
  return value === null || value === undefined ? [] : (JSON.parse(unpackJson(value)) as Change[]);
}
