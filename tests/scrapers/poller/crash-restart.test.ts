import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDatabase, openDatabase } from "@/db/client";
import { addVendor } from "@/db/vendors";
import { type Simulator, startSimulator } from "@/simulator/server";

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

function prepare(file: string): void {
  const db = openDatabase(file);
  for (const v of sim.vendors) addVendor(db, { slug: v.slug, name: v.name, platform: v.family, url: v.url }, "user");
  closeDatabase(db);
}

function poller(file: string, args: string[]): ChildProcess {
  return spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "scrapers", "cli", "main.ts"), "poll", ...args, "--quiet", "--db", file], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, REDLINE_ALLOW_PRIVATE_URLS: "1", REDLINE_HOST_INTERVAL_MS: "0", REDLINE_POLL_CONCURRENCY: "4", REDLINE_POLL_INTERVAL_SECONDS: "1" },
  });
}

function finished(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string }> {
  let out = "";
  child.stdout?.on("data", (d: Buffer) => { out += d.toString(); });
  child.stderr?.on("data", (d: Buffer) => { out += d.toString(); });
  return new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal, out })));
}

function count(file: string, sql: string): number {
  if (!fs.existsSync(file)) return 0;
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return (db.prepare(sql).get() as { n: number }).n;
  } catch {
    return 0;
  } finally {
    db.close();
  }
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
    prepare(clean);
    expect((await finished(poller(clean, ["--once"]))).code).toBe(0);

    const crashed = path.join(dir, "crashed.db");
    prepare(crashed);
    let killed = 0;
    for (let round = 0; round < 3; round += 1) {
      const child = poller(crashed, ["--once"]);
      const exit = finished(child);
      const target = count(crashed, "SELECT count(*) AS n FROM captures") + 8;
      while (count(crashed, "SELECT count(*) AS n FROM captures") < target && child.exitCode === null) {
        await new Promise((r) => setTimeout(r, 20));
      }
      child.kill("SIGKILL");
      if ((await exit).signal === "SIGKILL") killed += 1;
    }
    expect(killed).toBeGreaterThanOrEqual(1);
    expect((await finished(poller(crashed, ["--once"]))).code).toBe(0);
    expect(history(crashed)).toEqual(history(clean));
  });

  it("finishes the polls in flight and exits cleanly on SIGTERM", async () => {
    const file = path.join(dir, "term.db");
    prepare(file);
    const child = poller(file, []);
    const exit = finished(child);
    while (count(file, "SELECT count(*) AS n FROM captures") < 5) await new Promise((r) => setTimeout(r, 20));
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
    prepare(file);
    const only = sim.vendors[0]?.slug ?? "";
    const child = poller(file, ["--vendor", only]);
    const exit = finished(child);
    while (count(file, "SELECT count(*) AS n FROM poll_state") < 1) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 1_500));
    child.kill("SIGTERM");
    expect((await exit).code).toBe(0);
    const polled = new Database(file, { readonly: true });
    const slugs = (polled.prepare("SELECT DISTINCT v.slug FROM captures c JOIN vendors v ON v.id = c.vendor_id").all() as Array<{ slug: string }>).map((r) => r.slug);
    polled.close();
    expect(slugs).toEqual([only]);
  });
});
