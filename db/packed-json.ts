import { deflateRawSync, inflateRawSync } from "node:zlib";
import type { Change } from "@/lib/change";

/**
 * Full snapshots, record states and version changes are stored deflated: the JSON of one incident
 * compresses two to three times, and each is read whole. For texts of a few KB deflate is 3-5%
 * smaller than zstd at any level (docs/decisions/0018). Text written before is read as it is.
 */
export type PackedJson = string | Buffer;

/** Below this, deflate saves too little to be worth a decompression on read. */
const MIN_PACKED = 256;

export function packJson(text: string): PackedJson {
  return text.length < MIN_PACKED ? text : deflateRawSync(text, { level: 6 });
}

export function unpackJson(value: PackedJson): string {
  return typeof value === "string" ? value : inflateRawSync(value).toString("utf8");
}

/** Whether a stored value is in the form packJson gives it now. */
export function isPacked(value: PackedJson, text: string): boolean {
  return typeof value !== "string" || text.length < MIN_PACKED;
}

/** A version's stored `changes`, however it was written: every reader goes through here. */
export function unpackChanges(value: PackedJson | null | undefined): Change[] {
  return value === null || value === undefined ? [] : (JSON.parse(unpackJson(value)) as Change[]);
}
