import { gunzipSync } from "node:zlib";
import { Compressor, compress, Decompressor, decompress } from "zstd-napi";
import { compressWithDictionary, decompressWithDictionary, isDictionaryCompressed } from "@/db/history/json-dictionary";


/**
 * How raw bodies are encoded at rest: `zstd` a whole body, `zstd-delta` a body compressed with the
 * raw content of its base body as the dictionary (zstd's patch-from), `gzip` a whole body as the
 * layout before deltas stored it (read, and converted by `migrate`; never written).
 */
export const BODY_ENCODINGS = ["gzip", "zstd", "zstd-delta"] as const;
export type BodyEncoding = (typeof BODY_ENCODINGS)[number];

/** Level 9: within 3% of level 19 on the corpus at a fifth of the time (docs/decisions/0014). */
const LEVEL = 9;
/** zstd's largest window without the long-window flag on both sides; bodies are capped well below. */
const MAX_WINDOW_LOG = 27;

let compressor: Compressor | undefined;
let decompressor: Decompressor | undefined;

/** The window must span the dictionary and the body, or matches far back in the base are lost. */
function windowLogFor(bytes: number): number {
  return Math.min(MAX_WINDOW_LOG, Math.max(10, Math.ceil(Math.log2(bytes + 1))));
}

/** A whole body, compressed on its own. */
export function encodeFull(body: Uint8Array): Buffer {
  return compress(body, { compressionLevel: LEVEL });
}

/** A body compressed against its base body's raw content. */
export function encodeDelta(base: Uint8Array, body: Uint8Array): Buffer {
  compressor ??= new Compressor();
  compressor.setParameters({ compressionLevel: LEVEL, windowLog: windowLogFor(base.byteLength + body.byteLength) });
  compressor.loadDictionary(base);
  return compressor.compress(body);
}

/** Decode one stored row; `base` is the restored base body for a delta. */
export function decodeBody(encoding: BodyEncoding, stored: Uint8Array, base: Uint8Array | null): Buffer {
  if (encoding === "gzip") return gunzipSync(stored);
  if (encoding === "zstd") return decompress(stored);
  if (!base) throw new Error("a delta needs its base body");
  decompressor ??= new Decompressor();
  decompressor.setParameters({ windowLogMax: MAX_WINDOW_LOG });
  decompressor.loadDictionary(base);
  return decompressor.decompress(stored);
}

/** An incident's indexed text (a few KB), compressed against the stored-JSON dictionary (decision 0025). */
export function compressSearchText(text: Uint8Array): Buffer {
  return compressWithDictionary(text);
}

/** Also reads the rows written before, compressed on their own (decision 0020). */
export function decompressSearchText(stored: Uint8Array): Buffer {
  return isDictionaryCompressed(stored) ? decompressWithDictionary(stored) : decompress(stored);
}
