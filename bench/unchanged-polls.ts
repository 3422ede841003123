/**
 * Storage benchmark of unchanged polls: one Statuspage vendor of the simulator (incidents.json and
 * scheduled-maintenances.json, with ETags) polled once, then 1,000 times unchanged, answered with
 * 304s. Prints the bytes (database and WAL, checkpointed) and capture rows those polls added.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { closeDatabase, openDatabase, type RedlineDb } from "@/db/client";
import { addVendor } from "@/db/settings/vendors";
import { readEnv } from "@/lib/env";
import { createPollDeps } from "@/scrapers/poller/create-poller";
import { pollVendor } from "@/scrapers/poller/poll-vendor";
import { startSimulator } from "@/simulator/server";

const POLLS = 1_000;
const START = "2026-03-04T12:00:00.000Z";

function bytesOnDisk(db: RedlineDb, file: string): number {
  db.$client.pragma("wal_checkpoint(TRUNCATE)");
  const size = (f: string) => (fs.existsSync(f) ? fs.statSync(f).size : 0);
  return size(file) + size(`${file}-wal`);
}

function captureRows(db: RedlineDb): number {
  return db.$client.prepare<[], { n: number }>("SELECT count(*) AS n FROM captures").get()?.n ?? 0;
}

export async function runUnchangedPollsBenchmark(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "redline-bench-unchanged-"));
  const sim = await startSimulator({ vendors: [{ slug: "acme", family: "statuspage" }], acceleration: 0, start: START, seed: 3, control: false });
  const file = path.join(dir, "bench.db");
  const db = openDatabase(file);
  try {
    const env = readEnv({ ...process.env, REDLINE_ALLOW_PRIVATE_URLS: "1", REDLINE_HOST_INTERVAL_MS: "0" });
    let minute = 0;
    const deps = { ...createPollDeps(db, env), followUpIntervalMs: Number.MAX_SAFE_INTEGER, now: () => new Date(Date.parse(START) + minute * 60_000) };
    const sv = sim.vendor("acme");
    const vendor = await addVendor(db, { slug: "acme", name: sv.name, platform: sv.family, url: sv.url }, "user");
    await pollVendor(deps, vendor);
    const before = { bytes: bytesOnDisk(db, file), rows: captureRows(db) };
    const started = performance.now();
    for (minute = 1; minute <= POLLS; minute += 1) await pollVendor(deps, vendor);
    const ms = performance.now() - started;
    const after = { bytes: bytesOnDisk(db, file), rows: captureRows(db) };
    console.log(`${POLLS} unchanged polls of one vendor (2 endpoints, 304s): +${after.bytes - before.bytes} bytes on disk, +${after.rows - before.rows} capture rows, ${(ms / POLLS).toFixed(2)} ms per poll`);
  } finally {
    closeDatabase(db);
    await sim.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
