import { describe } from "vitest";
import { CORPUS_DIR, corpusAvailable } from "@/tests/support/corpus-location";

export * from "@/tests/support/corpus-location";

/** A describe block over real data that skips, saying why, when the corpus is absent. */
export function describeCorpus(name: string, body: () => void): void {
  if (corpusAvailable) {
    describe(name, body);
  } else {
    describe.skip(`${name} (skipped: corpus not found at ${CORPUS_DIR}; set REDLINE_CORPUS)`, body);
  }
}

