import { inflateRawSync } from "node:zlib";
import { compressWithDictionary, decompressWithDictionary, isDictionaryCompressed } from "@/db/history/json-dictionary";
import type { Change } from "@/lib/change";

/**
 * Full snapshots, record states and version changes are stored compressed against a dictionary of
 * such JSON (db/history/json-dictionary.ts, decision 0025), each read whole: about 40% smaller than the
 * deflate rows written before (decision 0018), which are read as they are, like plain text.
 */
export type PackedJson = string | Buffer;

/** Below this, deflate saves too little to be worth a decompression on read. */
const MIN_PACKED = 256;

export function packJson(text: string): PackedJson {
  return text.length < MIN_PACKED ? text : compressWithDictionary(Buffer.from(text, "utf8"));
}

export function unpackJson(value: PackedJson): string {
  if (typeof value === "string") return value;
  return (isDictionaryCompressed(value) ? decompressWithDictionary(value) : inflateRawSync(value)).toString("utf8");
}

/** Whether a stored value is in the form packJson gives it now (a deflated one of an earlier Redline is not). */
export function isPacked(value: PackedJson, text: string): boolean {
  return typeof value === "string" ? text.length < MIN_PACKED : isDictionaryCompressed(value);
}

/** A version's stored `changes`, however it was written: every reader goes through here. */
export function unpackChanges(value: PackedJson | null | undefined): Change[] {
  return value === null || value === undefined ? [] : (JSON.parse(unpackJson(value)) as Change[]);
}
