import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeStore, openStore, type RedlineDb } from "@/db/client";
import { addVendor } from "@/db/settings/vendors";
import { type Simulator, startSimulator } from "@/simulator/server";
import { countRows, freshLocation, queryRow, queryRows } from "@/tests/support/database";
import { childGone, exitOf, waitFor } from "@/tests/support/observe";
import { testDatabaseDialect } from "@/tests/support/test-database-settings";
import { REDLINE_BUNDLE } from "@/tests/support/redline-bundle";

const ROOT = path.resolve(__dirname, "..", "..", "..");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "redline-crash-"));
let sim: Simulator;

beforeAll(async () => {
  sim = await startSimulator({ count: 40, families: ["statuspage", "gcp", "slack", "aws-legacy"], acceleration: 0, start: "2026-03-04T12:00:00.000Z", seed: 21 });
});
afterAll(async () => {
  await sim.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The test's connections to the archives its pollers write, closed after the file's tests. */
const readers: RedlineDb[] = [];
afterAll(async () => {
  for (const db of readers.splice(0)) await closeStore(db);
});

/**
 * An archive on the suite's database with the simulator's vendors, and a connection of the test's
 * own to watch what the poller records in it (read-write on SQLite: after a kill -9 the first
 * reader may have to rebuild the WAL index, which a read-only connection may not).
 */
async function prepare(name: string): Promise<{ location: string; db: RedlineDb }> {
  const location = await freshLocation(dir, { name });
  const setup = await openStore(location);
  for (const v of sim.vendors) await addVendor(setup, { slug: v.slug, name: v.name, platform: v.family, url: v.url }, "user");
  await closeStore(setup);
  const db = await openStore(location, { migrate: false });
  readers.push(db);
  return { location, db };
}

function poller(location: string, args: string[]): ChildProcess {
  return spawn(process.execPath, [REDLINE_BUNDLE, "poll", ...args, "--quiet", "--db", location], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, REDLINE_ALLOW_PRIVATE_URLS: "1", REDLINE_HOST_INTERVAL_MS: "0", REDLINE_POLL_CONCURRENCY: "4", REDLINE_POLL_INTERVAL_SECONDS: "1" },
  });
}

async function history(db: RedlineDb): Promise<string[]> {
  const rows = await queryRows<{ line: string }>(
    db,
    `SELECT d.slug || ' ' || i.provider_id || ' #' || v.seq || ' ' || v.hash || ' ' || v.kinds AS line
     FROM incident_versions v JOIN incidents i ON i.id = v.incident_id JOIN vendors d ON d.id = v.vendor_id ORDER BY line`,
  );
  return rows.map((r) => r.line);
}

/** SQLite's own check of a file: every page, index and constraint as it should be. */
function integrityOf(file: string): unknown {
  const db = new Database(file, { fileMustExist: true });
  try {
    return db.pragma("integrity_check", { simple: true });
  } finally {
    db.close();
  }
}

/**
 * Runs `poller --once` on the archive, killing it with SIGKILL once it has recorded each of `kills`
 * more captures (of a round that has over a hundred to record); `afterKill` looks at the archive
 * after each kill.
 */
async function killRounds(archive: { location: string; db: RedlineDb }, kills: number[], afterKill: () => Promise<void> = async () => {}): Promise<void> {
  for (const more of kills) {
    const child = poller(archive.location, ["--once"]);
    const exit = exitOf(child);
    const target = (await countRows(archive.db, "captures")) + more;
    await waitFor(`${target} captures`, async () => (await countRows(archive.db, "captures")) >= target, () => childGone(child));
    child.kill("SIGKILL");
    expect((await exit).signal).toBe("SIGKILL");
    await afterKill();
  }
}

describe(`a poller killed mid-round (${testDatabaseDialect})`, () => {
  it("loses and duplicates nothing after kill -9 and a restart", async () => {
    const clean = await prepare("clean");
    expect((await exitOf(poller(clean.location, ["--once"]))).code).toBe(0);

    const crashed = await prepare("crashed");
    await killRounds(crashed, [8, 3, 13]);
    expect((await exitOf(poller(crashed.location, ["--once"]))).code).toBe(0);
    const expected = await history(clean.db);
    expect(expected.length).toBeGreaterThan(0);
    expect(await history(crashed.db)).toEqual(expected);
  }, 300_000);

  it.skipIf(testDatabaseDialect !== "sqlite")("leaves a file that passes SQLite's integrity check after each kill -9 and after the restart (SQLite)", async () => {
    const crashed = await prepare("integrity");
    await killRounds(crashed, [8, 13], async () => expect(integrityOf(crashed.location)).toBe("ok"));
    expect((await exitOf(poller(crashed.location, ["--once"]))).code).toBe(0);
    expect(integrityOf(crashed.location)).toBe("ok");
  }, 300_000);

  it("finishes the polls in flight and exits cleanly on SIGTERM", async () => {
    const archive = await prepare("term");
    const child = poller(archive.location, []);
    const exit = exitOf(child);
    await waitFor("5 captures", async () => (await countRows(archive.db, "captures")) >= 5, () => childGone(child));
    child.kill("SIGTERM");
    const result = await exit;
    expect(result.code).toBe(0);
    expect(result.out).toContain("poller: SIGTERM: finishing the polls in flight");
    expect(result.out).toContain("poller: stopped");
    const settled = await queryRow<{ n: number }>(archive.db, "SELECT count(*) AS n FROM captures WHERE outcome = 'ok' OR outcome = 'not-modified'");
    expect(settled?.n).toBeGreaterThanOrEqual(5);
  });
});

describe(`the polling loop for one vendor (${testDatabaseDialect})`, () => {
  it("polls only the vendor asked for", async () => {
    const archive = await prepare("one");
    const only = sim.vendors[0]?.slug ?? "";
    const child = poller(archive.location, ["--vendor", only]);
    const exit = exitOf(child);
    // Two polls of it (one interval apart): a filter that let the others through would have started them at once.
    const lastPoll = async () => (await queryRow<{ at: string | null }>(archive.db, "SELECT max(last_poll_at) AS at FROM poll_state"))?.at ?? null;
    await waitFor("a first poll", async () => (await lastPoll()) !== null, () => childGone(child));
    const first = await lastPoll();
    await waitFor("a second poll", async () => (await lastPoll()) !== first, () => childGone(child));
    child.kill("SIGTERM");
    expect((await exit).code).toBe(0);
    const slugs = await queryRows<{ slug: string }>(archive.db, "SELECT DISTINCT v.slug FROM captures c JOIN vendors v ON v.id = c.vendor_id");
    expect(slugs.map((r) => r.slug)).toEqual([only]);
  });
});
