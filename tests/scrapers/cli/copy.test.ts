import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeStore, openDatabase, openStore, type RedlineDb } from "@/db/client";
import { statementShaped } from "@/db/driver/prepared";
import { recordSupervisorEvent } from "@/db/operations/supervisor-events";
import { archiveAcmeLifecycle } from "@/tests/support/acme-archive";
import { importCorpusFolder, toLegacyLayout, vendorExportJson } from "@/tests/support/body-store";
import { corpusAvailable, CORPUS_DIR } from "@/tests/support/corpus-location";
import { describePostgres, withPostgresDatabase } from "@/tests/support/postgres";
import { watchProcess } from "@/tests/support/watch-process";
import { REDLINE_BUNDLE } from "@/tests/support/redline-bundle";

/** `redline copy` as an operator runs it: its refusals, a copy killed midway and run again, and back. */

const ROOT = path.resolve(__dirname, "..", "..", "..");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "redline-copy-cli-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

if (!corpusAvailable) console.warn(`copy CLI tests: no corpus at ${CORPUS_DIR} (set REDLINE_CORPUS): the archive copied is Acme's lifecycle only`);

function copy(args: string[]) {
  const child = spawn(process.execPath, [REDLINE_BUNDLE, "copy", ...args], {
    cwd: ROOT,
    env: { ...process.env, REDLINE_DATABASE_URL: "" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  return { child, watched: watchProcess(child) };
}

async function copied(args: string[]): Promise<{ code: number | null; stdout: string[]; stderr: string[] }> {
  const { watched } = copy(args);
  const exit = await watched.exited;
  return { code: exit.code, stdout: watched.stdout, stderr: watched.stderr };
}

async function exportsOf(db: RedlineDb): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const { slug } of await statementShaped<[], { slug: string }>(db.connection, "SELECT slug FROM vendors ORDER BY id").all()) out[slug] = await vendorExportJson(db, slug);
  return out;
}

async function withStore<T>(location: string, look: (db: RedlineDb) => Promise<T>): Promise<T> {
  const db = await openStore(location, { migrate: false });
  try {
    return await look(db);
  } finally {
    await closeStore(db);
  }
}

/** How many rows of each table, to tell that nothing was written. */
const counts = (location: string) =>
  withStore(location, async (db) => {
    const out: Record<string, number> = {};
    for (const table of ["vendors", "captures", "incidents", "incident_versions", "supervisor_events", "archive_changes"]) {
      out[table] = Number((await statementShaped<[], { n: number }>(db.connection, `SELECT count(*) AS n FROM ${table}`).get())?.n);
    }
    return out;
  });

let source: string;
let expected: Record<string, string>;

beforeAll(async () => {
  source = path.join(dir, "source.db");
  const db = openDatabase(source);
  await archiveAcmeLifecycle(db);
  if (corpusAvailable) {
    await importCorpusFolder(db, "gcp-incidents", { slice: [0, 20] });
    await importCorpusFolder(db, "statuspage-summary-jira", { slice: [0, 20] });
  }
  expected = await exportsOf(db);
  await closeStore(db);
}, 180_000);

describe("redline copy between SQLite files", () => {
  it("copies the archive to a new file, with a line per table on stderr, leaving the source's file as it was", async () => {
    const target = path.join(dir, "copy.db");
    const before = fs.readFileSync(source);
    const run = await copied(["--from", source, "--to", target]);
    expect(fs.readFileSync(source).equals(before)).toBe(true);
    expect(run.code, run.stderr.join("\n")).toBe(0);
    expect(run.stdout.join("\n")).toMatch(/^copied \d+ rows in \d+ tables from .* to .* in [\d.]+ s \(archive revision \d+\)$/m);
    expect(run.stderr).toContainEqual(expect.stringMatching(/^copy: incident_versions: \d+ rows copied of \d+$/));
    expect(await withStore(target, exportsOf)).toEqual(expected);
  }, 120_000);

  it("refuses a source that is not there, a target that is the source, and a target holding another archive, changing nothing", async () => {
    const missing = await copied(["--from", path.join(dir, "nothing.db"), "--to", path.join(dir, "never.db")]);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr.join("\n")).toMatch(/no database at .*nothing\.db to copy from/);
    expect(fs.existsSync(path.join(dir, "never.db"))).toBe(false);

    const scheme = await copied(["--from", "mysql://somewhere/archive", "--to", path.join(dir, "never.db")]);
    expect(scheme.code).not.toBe(0);
    expect(scheme.stderr.join("\n")).toMatch(/mysql:\/\/ is not a database Redline keeps its archive in/);

    const before = await counts(source);
    const same = await copied(["--from", source, "--to", `${dir}/./${path.basename(source)}`]);
    expect(same.code).not.toBe(0);
    expect(same.stderr.join("\n")).toMatch(/the source and the target are the same database/);
    expect(await counts(source)).toEqual(before);

    const other = path.join(dir, "other.db");
    const db = openDatabase(other);
    await recordSupervisorEvent(db, { at: "2026-05-01T00:00:00.000Z", process: "poller", event: "started", detail: "another archive" });
    await archiveAcmeLifecycle(db);
    await closeStore(db);
    const otherBefore = await counts(other);
    const refused = await copied(["--from", source, "--to", other]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr.join("\n")).toMatch(/the target holds a different archive/);
    expect(await counts(other)).toEqual(otherBefore);
  }, 120_000);
});

describe("redline copy from an earlier Redline's file", () => {
  it("refuses it, naming the migrate to run first, and creates no target", async () => {
    const legacy = path.join(dir, "legacy.db");
    const db = openDatabase(legacy);
    await archiveAcmeLifecycle(db);
    expect(await toLegacyLayout(db)).toBeGreaterThan(0);
    await closeStore(db);
    const target = path.join(dir, "from-legacy.db");
    const run = await copied(["--from", legacy, "--to", target]);
    expect(run.code).not.toBe(0);
    expect(run.stderr.join("\n")).toContain(`the source ${legacy} holds an earlier Redline's layout: run \`npm run redline -- migrate --db ${legacy}\` first`);
    expect(fs.existsSync(target)).toBe(false);
  }, 120_000);
});

describePostgres("redline copy to PostgreSQL and back", () => {
  const database = withPostgresDatabase({ prefix: "redline_copy_cli" });
  const another = withPostgresDatabase({ prefix: "redline_copy_cli_pg" });

  it("killed midway, resumes when run again; the archive is the same on PostgreSQL, copied back to SQLite and to another PostgreSQL database", async () => {
    const first = copy(["--from", source, "--to", database.url, "--batch", "1"]);
    await first.watched.until("the vendors copied", () => first.watched.stderr.some((l) => /^copy: vendors: \d+ rows copied of \d+$/.test(l)));
    first.child.kill("SIGKILL");
    expect((await first.watched.exited).signal).toBe("SIGKILL");
    const partial = await counts(database.url);
    expect(partial.vendors).toBeGreaterThan(0);

    const second = await copied(["--from", source, "--to", database.url, "--batch", "50"]);
    expect(second.code, second.stderr.join("\n")).toBe(0);
    expect(second.stderr).toContainEqual(expect.stringMatching(/^copy: vendors: 0 rows copied of (\d+) \(\1 already there\)$/));
    expect(await counts(database.url)).toEqual(await counts(source));
    expect(await withStore(database.url, exportsOf)).toEqual(expected);

    const back = path.join(dir, "back.db");
    const returned = await copied(["--from", database.url, "--to", back]);
    expect(returned.code, returned.stderr.join("\n")).toBe(0);
    expect(await counts(back)).toEqual(await counts(source));
    expect(await withStore(back, exportsOf)).toEqual(expected);

    const pgToPg = await copied(["--from", database.url, "--to", another.url]);
    expect(pgToPg.code, pgToPg.stderr.join("\n")).toBe(0);
    expect(await withStore(another.url, exportsOf)).toEqual(expected);

    const onto = await copied(["--from", database.url, "--to", database.url]);
    expect(onto.code).not.toBe(0);
    expect(onto.stderr.join("\n")).toMatch(/the source and the target are the same database/);
  }, 300_000);
});
