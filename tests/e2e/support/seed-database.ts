import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { isMainThread } from "node:worker_threads";
import { ROOT, runRedlineOk } from "@/tests/e2e/support/commands";
import { isProcessAlive, withLock } from "@/tests/e2e/support/lock";
import { corpusAvailable, corpusPath } from "@/tests/support/corpus-location";
import { postgresAdminUrl } from "@/tests/support/postgres";
import { createPostgresDatabase } from "@/tests/support/postgres-databases";

export const FIXTURES = path.join(ROOT, "tests", "fixtures", "e2e");
export const SCREENSHOT_DIR = path.join(ROOT, "test-results", "e2e");

const RUN_PREFIX = "redline-e2e-run-";

/** Hand-written snapshots, imported whether or not the corpus is there: what the tests assert on. */
const FIXTURE_IMPORTS = [
  ["import", path.join(FIXTURES, "acme-summary"), "--vendor", "acme", "--name", "Acme Cloud", "--platform", "statuspage-summary"],
  ["import", path.join(FIXTURES, "acme-incident"), "--vendor", "acme", "--platform", "statuspage-incident"],
  ["import", path.join(FIXTURES, "hostile-incident"), "--vendor", "hostile", "--name", "Hostile Status", "--platform", "statuspage-incident"],
  ["import", path.join(FIXTURES, "longform-incident"), "--vendor", "longform", "--name", "Longform", "--platform", "statuspage-incident"],
  ["import", path.join(FIXTURES, "relay-summary"), "--vendor", "relay", "--name", "Relay Networks", "--platform", "statuspage-summary"],
  ["import", path.join(FIXTURES, "chatter-current"), "--vendor", "chatter", "--name", "Chatter", "--platform", "slack"],
  ["import", path.join(FIXTURES, "calm-summary"), "--vendor", "calm", "--name", "Calm Cloud", "--platform", "statuspage-summary"],
  // Gives Acme a live status page link on its profile, as an operator would.
  ["vendors", "add", "--slug", "acme", "--name", "Acme Cloud", "--platform", "statuspage", "--url", "https://status.acme.example", "--add-source"],
];

/** Atom snapshots are slow to import (30 ms each): the latest ones are history enough. */
const ATOM_SNAPSHOTS = 60;

/**
 * Real history, when the corpus is present: long titles, vendor HTML and many versions. The
 * Atom folder is cut to its latest snapshots, linked into a folder of the run's own.
 */
function corpusImports(runDir: string): string[][] {
  const atom = path.join(runDir, "atom-github-history");
  fs.rmSync(atom, { recursive: true, force: true });
  fs.mkdirSync(atom);
  const latest = fs.readdirSync(corpusPath("atom-github-history")).filter((name) => /^\d{8}T\d{6}Z__/.test(name)).sort().slice(-ATOM_SNAPSHOTS);
  for (const name of latest) fs.symlinkSync(corpusPath("atom-github-history", name), path.join(atom, name));
  return [
    ["import", corpusPath("statuspage-summary-jira"), "--vendor", "jira", "--name", "Jira", "--platform", "statuspage-summary"],
    ["import", atom, "--vendor", "github", "--name", "GitHub", "--platform", "statuspage-atom"],
  ];
}

/** The vitest process this test file runs under: e2e files of one run share its seeded database. */
function runOwnerPid(): number {
  return isMainThread ? process.ppid : process.pid;
}

/** Seed folders of earlier runs whose vitest process is gone. */
function removeDeadRuns(): void {
  for (const name of fs.readdirSync(os.tmpdir())) {
    if (!name.startsWith(RUN_PREFIX)) continue;
    const pid = Number(name.slice(RUN_PREFIX.length));
    if (Number.isInteger(pid) && pid !== runOwnerPid() && !isProcessAlive(pid)) {
      fs.rmSync(path.join(os.tmpdir(), name), { recursive: true, force: true });
    }
  }
}

/**
 * The database every e2e file of this run starts from, seeded once through the CLI's import path
 * (the same code `npm run redline -- import` runs). The first file to get here seeds it and
 * clears the previous run's screenshots; the others wait for it and reuse it.
 */
export async function ensureSeedDatabase(): Promise<string> {
  removeDeadRuns();
  const runDir = path.join(os.tmpdir(), `${RUN_PREFIX}${runOwnerPid()}`);
  const seeded = path.join(runDir, "seed.db");
  const done = path.join(runDir, "seed.done");
  fs.mkdirSync(runDir, { recursive: true });
  await withLock(path.join(runDir, "seed.lock"), async () => {
    if (fs.existsSync(done)) return;
    fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
    for (const name of fs.readdirSync(SCREENSHOT_DIR)) if (name.endsWith(".png")) fs.rmSync(path.join(SCREENSHOT_DIR, name));
    for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(`${seeded}${suffix}`, { force: true });
    const run = async (commands: readonly string[][]) => {
      for (const args of commands) await runRedlineOk([...args, "--db", seeded]);
    };
    // The first import creates the database; then the corpus goes in beside the fixtures.
    const [first, ...rest] = FIXTURE_IMPORTS;
    await run(first ? [first] : []);
    await Promise.all([run(rest), run(corpusAvailable ? corpusImports(runDir) : [])]);
    fs.writeFileSync(done, new Date().toISOString());
  });
  return seeded;
}

/** A private copy of the seeded database for one test file's server. */
export function copyDatabase(seeded: string, dir: string): string {
  const copy = path.join(dir, "redline.db");
  for (const suffix of ["", "-wal"]) {
    if (fs.existsSync(`${seeded}${suffix}`)) fs.copyFileSync(`${seeded}${suffix}`, `${copy}${suffix}`);
  }
  return copy;
}

/**
 * The seeded archive as a database of the run's PostgreSQL cluster, made once per run by `redline
 * copy` (the way an operator moves up) and then used as a template: each file's database is a file
 * copy of it. It goes with the cluster at the end of the run.
 */
export async function ensurePostgresSeed(seeded: string): Promise<string> {
  const runDir = path.dirname(seeded);
  const done = path.join(runDir, "postgres-seed.done");
  await withLock(path.join(runDir, "postgres-seed.lock"), async () => {
    if (fs.existsSync(done)) return;
    const url = await createPostgresDatabase(postgresAdminUrl(), "redline_e2e_seed");
    await runRedlineOk(["copy", "--from", seeded, "--to", url]);
    fs.writeFileSync(done, decodeURIComponent(new URL(url).pathname.slice(1)));
  });
  return fs.readFileSync(done, "utf8");
}

/** A private copy of the PostgreSQL seed for one test file's server; its URL. */
export function copyPostgresDatabase(template: string, label: string): Promise<string> {
  return createPostgresDatabase(postgresAdminUrl(), `redline_e2e_${label}`, template);
}
