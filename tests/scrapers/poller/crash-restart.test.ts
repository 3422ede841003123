import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDatabase, openDatabase } from "@/db/client";
import { addVendor } from "@/db/vendors";
import { type Simulator, startSimulator } from "@/simulator/server";
import { childGone, exitOf, readCount, waitFor } from "@/tests/support/observe";

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

async function prepare(file: string): Promise<void> {
  const db = openDatabase(file);
  for (const v of sim.vendors) await addVendor(db, { slug: v.slug, name: v.name, platform: v.family, url: v.url }, "user");
  closeDatabase(db);
}

function poller(file: string, args: string[]): ChildProcess {
  return spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "scrapers", "cli", "main.ts"), "poll", ...args, "--quiet", "--db", file], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, REDLINE_ALLOW_PRIVATE_URLS: "1", REDLINE_HOST_INTERVAL_MS: "0", REDLINE_POLL_CONCURRENCY: "4", REDLINE_POLL_INTERVAL_SECONDS: "1" },
  });
}

function count(file: string, sql: string): number {
  return readCount(file, sql) ?? 0;
}

function history(file: string): string[] {
  const db = new Database(file, { readonly: true });
  try {
    expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
    return (db.prepare(
      `SELECT d.slug || ' ' || i.provider_id || ' #' || v.seq || ' ' || v.hash || ' ' || v.kinds AS line
       FROM incident_versions v JOIN incidents i ON i.id = v.incident_id JOIN vendors d ON d.id = v.vendor_id ORDER BY line`,
    ).all() as Array<{ line: string }>).map((r) => r.line);
  } finally {
    db.close();
  }
}

describe("a poller killed mid-round", () => {
  it("loses and duplicates nothing after kill -9 and a restart", async () => {
    const clean = path.join(dir, "clean.db");
    await prepare(clean);
    expect((await exitOf(poller(clean, ["--once"]))).code).toBe(0);

    const crashed = path.join(dir, "crashed.db");
    await prepare(crashed);
    // Each round is killed once it has recorded a few captures of a round that has over a hundred to record.
    for (const more of [8, 3, 13]) {
      const child = poller(crashed, ["--once"]);
      const exit = exitOf(child);
      const target = count(crashed, "SELECT count(*) AS n FROM captures") + more;
      await waitFor(`${target} captures`, () => count(crashed, "SELECT count(*) AS n FROM captures") >= target, () => childGone(child));
      child.kill("SIGKILL");
      expect((await exit).signal).toBe("SIGKILL");
    }
    expect((await exitOf(poller(crashed, ["--once"]))).code).toBe(0);
    expect(history(crashed)).toEqual(history(clean));
  }, 300_000);

  it("finishes the polls in flight and exits cleanly on SIGTERM", async () => {
    const file = path.join(dir, "term.db");
    await prepare(file);
    const child = poller(file, []);
    const exit = exitOf(child);
    await waitFor("5 captures", () => count(file, "SELECT count(*) AS n FROM captures") >= 5, () => childGone(child));
    child.kill("SIGTERM");
    const result = await exit;
    expect(result.code).toBe(0);
    expect(result.out).toContain("poller: SIGTERM: finishing the polls in flight");
    expect(result.out).toContain("poller: stopped");
    expect(count(file, "SELECT count(*) AS n FROM captures WHERE outcome = 'ok' OR outcome = 'not-modified'")).toBeGreaterThanOrEqual(5);
  });
});

describe("the polling loop for one vendor", () => {
  it("polls only the vendor asked for", async () => {
    const file = path.join(dir, "one.db");
    await prepare(file);
    const only = sim.vendors[0]?.slug ?? "";
    const child = poller(file, ["--vendor", only]);
    const exit = exitOf(child);
    // Two polls of it (one interval apart): a filter that let the others through would have started them at once.
    const lastPoll = () => readCount(file, "SELECT julianday(last_poll_at) AS n FROM poll_state");
    await waitFor("a first poll", () => lastPoll() !== null, () => childGone(child));
    const first = lastPoll();
    await waitFor("a second poll", () => lastPoll() !== first, () => childGone(child));
    child.kill("SIGTERM");
    expect((await exit).code).toBe(0);
    const polled = new Database(file, { readonly: true });
    const slugs = (polled.prepare("SELECT DISTINCT v.slug FROM captures c JOIN vendors v ON v.id = c.vendor_id").all() as Array<{ slug: string }>).map((r) => r.slug);
    polled.close();
    expect(slugs).toEqual([only]);
  });
});
