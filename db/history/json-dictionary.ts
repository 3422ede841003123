import { createHash } from "node:crypto";
import { type CompressParameters, Compressor, Decompressor } from "zstd-napi";
import json1 from "@/db/history/dictionaries/json-1.json";

/**
 * Stored JSON (record states, snapshots, changes, search text) is a few hundred bytes to a few KB
 * per row, too little for a compressor to learn its keys and phrases from the row alone: each is
 * compressed with zstd against a fixed dictionary of such JSON (decision 0025). A dictionary in use
 * is never changed, since every row written with it needs it to be read: a better one is added
 * under the next number, and each row names the one it was written with.
 *
 * A row is [MARKER, dictionary number, zstd frame]. The marker's low three bits (111) can begin
 * no raw deflate stream (block type 11 is reserved), nor a zstd frame, so rows written before,
 * deflated or compressed without a dictionary, stay readable beside these.
 */
export const DICTIONARY_MARKER = 0x07;
/** The dictionary new rows are written with. */
const CURRENT = 1;
/** Level 9: within 2% of level 19 with the dictionary, at a tenth of the time (decision 0025). */
const LEVEL = 9;

export interface DictionaryFile {
  number: number;
  sha256: string;
  text: string;
}

const FILES: ReadonlyMap<number, DictionaryFile> = new Map([[1, json1]]);

export class DictionaryError extends Error {
  readonly kind = "dictionary";
}

function dictionaryBytes(number: number): Buffer {
  const file = FILES.get(number);
  if (!file) throw new DictionaryError(`store: a row names compression dictionary ${number}, which this version of Redline does not have`);
  return verifiedDictionary(file, number);
}

/** The dictionary's bytes, once they are shown to be the ones its rows were written with. */
export function verifiedDictionary(file: DictionaryFile, number: number): Buffer {
  const bytes = Buffer.from(file.text, "utf8");
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  if (file.number !== number || sha256 !== file.sha256) {
    throw new DictionaryError(`store: compression dictionary ${number} was altered (sha256 ${sha256}, expected ${file.sha256}); rows written with it cannot be read`);
  }
  return bytes;
}

/** zstd against one fixed dictionary: its compressor and decompressor, made on first use and kept. */
export interface DictionaryCodec {
  compress(data: Uint8Array): Buffer;
  decompress(data: Uint8Array): Buffer;
}

export function dictionaryCodec(dictionary: () => Buffer, parameters: CompressParameters): DictionaryCodec {
  let compressor: Compressor | undefined;
  let decompressor: Decompressor | undefined;
  return {
    compress(data) {
      if (!compressor) {
        compressor = new Compressor();
        compressor.setParameters(parameters);
        compressor.loadDictionary(dictionary());
      }
      return compressor.compress(data);
    },
    decompress(data) {
      if (!decompressor) {
        decompressor = new Decompressor();
        decompressor.loadDictionary(dictionary());
      }
      return decompressor.decompress(data);
    },
  };
}

const codecs = new Map<number, DictionaryCodec>();

function codecFor(number: number): DictionaryCodec {
  let codec = codecs.get(number);
  if (!codec) {
    const bytes = dictionaryBytes(number);
    codec = dictionaryCodec(() => bytes, { compressionLevel: LEVEL });
    codecs.set(number, codec);
  }
  return codec;
}

/** Whether a stored value was written by compressWithDictionary. */
export function isDictionaryCompressed(value: Uint8Array): boolean {
  return value.byteLength >= 2 && value[0] === DICTIONARY_MARKER;
}

export function compressWithDictionary(data: Uint8Array): Buffer {
  return Buffer.concat([Buffer.from([DICTIONARY_MARKER, CURRENT]), codecFor(CURRENT).compress(data)]);
}

export function decompressWithDictionary(value: Uint8Array): Buffer {
  if (!isDictionaryCompressed(value)) throw new DictionaryError("store: a value was read as dictionary-compressed but is not");
  const number = value[1] ?? 0;
  try {
    return codecFor(number).decompress(value.subarray(2));
  } catch (error) {
    if (error instanceof DictionaryError) throw error;
    throw new DictionaryError(`store: a value compressed with dictionary ${number} cannot be decompressed (${error instanceof Error ? error.message : String(error)})`);
  }
}
