/**
 * Polling benchmark: one round over 1,000 simulated vendors on loopback, all unchanged and then
 * with about 10% changed, beside a bare loop of fetch calls to the same URLs with the same
 * concurrency. The simulator runs in this process; each measured phase runs in a child process,
 * so its CPU time and peak memory are Redline's (or the bare loop's) alone. On SQLite and on
 * PostgreSQL in the same run (bench/bench-databases.ts), each against a simulator of its own.
 * Goal: within 1.3x. BENCH_POLL_FAMILY picks the live platform (default statuspage-incidents, one
 * request a vendor; `statuspage` adds maintenances and the component grid), BENCH_POLL_COMPONENTS
 * the grid's size (default 20).
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { dialectLabel, onEachDatabase } from "@/bench/bench-databases";
import { cpuProfileArgs } from "@/bench/cpu-profile";
import { closeStore, openStore } from "@/db/client";
import { addVendor } from "@/db/settings/vendors";
import { readEnv } from "@/lib/env";
import { createPollDeps, createScheduler } from "@/scrapers/poller/create-poller";
import { lifecycleEvents } from "@/simulator/scenario";
import { startSimulator } from "@/simulator/server";

const VENDORS = Number(process.env.BENCH_VENDORS ?? 1_000);
const CONCURRENCY = 32;
/** The live platform polled: one request a vendor by default; `statuspage` reads incidents, maintenances and the grid. */
const FAMILY = process.env.BENCH_POLL_FAMILY ?? "statuspage-incidents";
/** Components each simulated vendor lists (issue 32's goal: 20). */
const COMPONENTS = Number(process.env.BENCH_POLL_COMPONENTS ?? 20);
const START = "2026-03-04T12:00:00.000Z";

interface PhaseResult {
  phase: string;
  requests: number;
  wallMs: number;
  cpuMs: number;
  peakRssMb: number;
  versions: number;
}

function measure(phase: string, work: () => Promise<{ requests: number; versions: number }>): Promise<PhaseResult> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  return work().then(({ requests, versions }) => {
    const used = process.cpuUsage(cpu);
    return {
      phase,
      requests,
      versions,
      wallMs: performance.now() - started,
      cpuMs: (used.user + used.system) / 1000,
      peakRssMb: process.resourceUsage().maxRSS / 1024,
    };
  });
}

async function pollPhase(phase: string, dbFile: string): Promise<PhaseResult> {
  const env = readEnv({ ...process.env, REDLINE_ALLOW_PRIVATE_URLS: "1", REDLINE_HOST_INTERVAL_MS: "0", REDLINE_POLL_CONCURRENCY: String(CONCURRENCY) });
  const db = await openStore(dbFile);
  try {
    const scheduler = createScheduler(createPollDeps(db, env), env);
    return await measure(phase, async () => {
      const round = await scheduler.runOnce();
      // A failed poll is fast and would flatter the figures: a round measures only when every poll succeeded.
      if (round.failed > 0) throw new Error(`bench: ${round.failed} of ${round.vendors} polls failed in "${phase}"; the first: ${round.firstError}`);
      return { requests: round.vendors, versions: round.versionsAdded };
    });
  } finally {
    await closeStore(db);
  }
}

async function barePhase(phase: string, urlsFile: string): Promise<PhaseResult> {
  const urls = JSON.parse(fs.readFileSync(urlsFile, "utf8")) as string[];
  return measure(phase, async () => {
    const queue = [...urls];
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let url = queue.shift(); url; url = queue.shift()) await (await fetch(url)).arrayBuffer();
      }),
    );
    return { requests: urls.length, versions: 0 };
  });
}

async function child(kind: string, phase: string, file: string): Promise<void> {
  const result = kind === "poll" ? await pollPhase(phase, file) : await barePhase(phase, file);
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

/** Runs child phases in series while this process serves them; the event loop must stay free. */
async function runChildAsync(kind: "poll" | "bare", phase: string, file: string): Promise<PhaseResult> {
  return new Promise((resolve, reject) => {
    // Each phase writes a CPU profile, when asked (bench/cpu-profile.ts).
    const proc = spawn(process.execPath, [...cpuProfileArgs(), "--import", "tsx", __filename, "--child", kind, phase, file], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    proc.stdout.on("data", (d: Buffer) => { out += d.toString(); });
    proc.on("exit", (code) => (code === 0 ? resolve(JSON.parse(out.trim().split("\n").at(-1) ?? "{}") as PhaseResult) : reject(new Error(`bench: ${phase} exited ${code}`))));
  });
}

function print(rows: readonly PhaseResult[]): void {
  console.log("phase                                   requests  seconds   CPU s  req/s  peak RSS MB  versions");
  for (const r of rows) {
    console.log(
      `${r.phase.padEnd(39)} ${String(r.requests).padStart(8)} ${(r.wallMs / 1000).toFixed(2).padStart(8)} ${(r.cpuMs / 1000).toFixed(2).padStart(7)} ` +
        `${(r.requests / (r.wallMs / 1000)).toFixed(0).padStart(6)} ${r.peakRssMb.toFixed(0).padStart(12)} ${String(r.versions).padStart(9)}`,
    );
  }
}

async function pollOn(dbFile: string, label: string): Promise<PhaseResult[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "redline-poll-bench-"));
  const simulator = await startSimulator({ count: VENDORS, families: [FAMILY], acceleration: 0, start: START, seed: 42, control: false, components: COMPONENTS });
  try {
    const urlsFile = path.join(dir, "urls.json");
    const db = await openStore(dbFile);
    for (const v of simulator.vendors) await addVendor(db, { slug: v.slug, name: v.name, platform: v.family, url: v.url }, "user");
    await closeStore(db);
    fs.writeFileSync(urlsFile, JSON.stringify(simulator.vendors.map((v) => v.url)));

    const prime = await runChildAsync("poll", `${label} first round (all new)`, dbFile);
    const unchanged = await runChildAsync("poll", `${label} round, all unchanged`, dbFile);
    const bareUnchanged = await runChildAsync("bare", "bare fetch loop", urlsFile);

    // Move the clock just far enough that about a tenth of the vendors have a scripted event.
    const changesBy = (to: number) => simulator.vendors.filter((v) => lifecycleEvents(v.scenario, Date.parse(START) + 1, to).length > 0).length;
    let to = Date.parse(START);
    while (changesBy(to) < VENDORS / 10) to += 60_000;
    simulator.setClock(new Date(to).toISOString());
    const changed = await runChildAsync("poll", `${label} round, ${changesBy(to)} changed`, dbFile);
    const bareChanged = await runChildAsync("bare", "bare fetch loop", urlsFile);
    return [prime, unchanged, bareUnchanged, changed, bareChanged];
  } finally {
    await simulator.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export async function runPollBenchmark(): Promise<void> {
  const runs = await onEachDatabase(({ dialect, location }) => pollOn(location, dialectLabel(dialect)));
  const rows = runs.flatMap((r) => r.result);
  console.log(`${VENDORS} vendors of family ${FAMILY}, ${COMPONENTS} components each`);
  print(rows);
  for (const { result } of runs) {
    const [, unchanged, bareUnchanged, changed, bareChanged] = result;
    if (!unchanged || !bareUnchanged || !changed || !bareChanged) continue;
    for (const [poll, bare] of [[unchanged, bareUnchanged], [changed, bareChanged]] as const) {
      const ratio = poll.wallMs / bare.wallMs;
      console.log(`goal ${poll.phase} within 1.3x of the bare loop: ${ratio <= 1.3 ? "met" : "NOT met"} (${ratio.toFixed(2)}x wall, ${(poll.cpuMs / bare.cpuMs).toFixed(2)}x CPU)`);
    }
  }
}

const childFlag = process.argv.indexOf("--child");
if (childFlag >= 0) {
  const [kind = "", phase = "", file = ""] = process.argv.slice(childFlag + 1);
  child(kind, phase, file).catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
