/** Where the shared corpus of real vendor snapshots is, and what is in it (no test-runner imports). */
import fs from "node:fs";
import path from "node:path";

/** The shared corpus of real vendor snapshots: REDLINE_CORPUS, or ../shared/corpus beside the checkout. */
export const CORPUS_DIR = path.resolve(process.env.REDLINE_CORPUS ?? path.join(__dirname, "..", "..", "..", "shared", "corpus"));

export const corpusAvailable = fs.existsSync(path.join(CORPUS_DIR, "SOURCES.md"));

if (!corpusAvailable && process.env.REDLINE_REQUIRE_CORPUS === "1") {
  throw new Error(`REDLINE_REQUIRE_CORPUS=1 but no corpus at ${CORPUS_DIR} (set REDLINE_CORPUS)`);
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

/** Every history folder of the corpus, with the platform its snapshots are in. */
export const CORPUS_FOLDERS: ReadonlyArray<{ folder: string; vendor: string; platform: string }> = [
  { folder: "statuspage-summary-github-2025", vendor: "github", platform: "statuspage-summary" },
  { folder: "statuspage-summary-jira", vendor: "jira", platform: "statuspage-summary" },
  { folder: "statuspage-summary-trello-nonutc", vendor: "trello", platform: "statuspage-summary" },
  { folder: "statuspage-incident-github-single", vendor: "github-incidents", platform: "statuspage-incident" },
  { folder: "gcp-incidents", vendor: "google-cloud", platform: "gcp" },
  { folder: "slack-current-2020", vendor: "slack", platform: "slack" },
  { folder: "aws-data-json-2021-12", vendor: "aws", platform: "aws-legacy" },
  { folder: "atom-github-history", vendor: "github-atom", platform: "statuspage-atom" },
];
