import { gunzipSync } from "node:zlib";
import { Compressor, compress, Decompressor, decompress } from "zstd-napi";
import type { BodyEncoding } from "@/db/schema";


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

/** Level 3 for an incident's indexed text: levels 6-19 save 1-4% more on the corpus at 2-35x the time (decision 0020). */
const SEARCH_TEXT_LEVEL = 3;

/** An incident's indexed text (a few KB), compressed on its own. */
export function compressSearchText(text: Uint8Array): Buffer {
  return compress(text, { compressionLevel: SEARCH_TEXT_LEVEL });
}

export function decompressSearchText(stored: Uint8Array): Buffer {
  return decompress(stored);
}
