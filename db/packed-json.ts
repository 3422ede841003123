import { deflateRawSync, inflateRawSync } from "node:zlib";

/**
 * Full snapshots and record states are stored deflated: the JSON of one incident compresses four
 * to six times, and each is read whole. Text written before is read as it is.
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
