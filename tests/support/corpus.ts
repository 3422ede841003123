import fs from "node:fs";
import path from "node:path";
import { describe } from "vitest";

/** The shared corpus of real vendor snapshots: REDLINE_CORPUS, or ../shared/corpus beside the checkout. */
export const CORPUS_DIR = path.resolve(process.env.REDLINE_CORPUS ?? path.join(__dirname, "..", "..", "..", "shared", "corpus"));

export const corpusAvailable = fs.existsSync(path.join(CORPUS_DIR, "SOURCES.md"));

if (!corpusAvailable && process.env.REDLINE_REQUIRE_CORPUS === "1") {
  throw new Error(`REDLINE_REQUIRE_CORPUS=1 but no corpus at ${CORPUS_DIR} (set REDLINE_CORPUS)`);
}

/** A describe block over real data that skips, saying why, when the corpus is absent. */
export function describeCorpus(name: string, body: () => void): void {
  if (corpusAvailable) {
    describe(name, body);
  } else {
    describe.skip(`${name} (skipped: corpus not found at ${CORPUS_DIR}; set REDLINE_CORPUS)`, body);
  }
}

export function corpusPath(...parts: string[]): string {
  return path.join(CORPUS_DIR, ...parts);
}

/** Snapshot files of a corpus folder in capture order (MANIFEST.tsv and EVENTS.txt left out). */
export function corpusSnapshots(folder: string): string[] {
  return fs
    .readdirSync(corpusPath(folder))
    .filter((name) => /^\d{8}T\d{6}Z__/.test(name))
    .sort()
    .map((name) => corpusPath(folder, name));
}

/** When the snapshot was taken, from its file name. */
export function observedAtOf(file: string): string {
  const m = /(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z__/.exec(path.basename(file));
  if (!m) throw new Error(`not a snapshot file name: ${file}`);
  return `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}.000Z`;
}
