/**
 * Webhook flood benchmark: how long a well-behaved source's pushes take to be answered, alone and
 * while another source floods the endpoint at 1,500 pushes a second with cycling content (the
 * replay-loop incident), and how fast the flood's refusals come back. The endpoint runs in a
 * process of its own with the flood test's budgets (tests/support/hook-server.ts, the same
 * handler the web server mounts); this process drives it. These figures are what
 * tests/server/hook-flood.test.ts used to assert as budgets: measured here, asserted nowhere.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { closeDatabase, openDatabase } from "@/db/client";
import { setHookSecretHash } from "@/db/operations/hooks";
import { addVendor } from "@/db/settings/vendors";

const ROOT = path.resolve(__dirname, "..");
const SECONDS = Number(process.env.BENCH_HOOK_SECONDS ?? 20);
const FLOOD_RATE = 1_500;
const FLOOD_CONNECTIONS = 20;
/** The other source pushes no faster than its own budget (5 a second) allows. */
const CALM_PACING_MS = 250;
const SECRET = "bench-hook-secret-0123456789";

function payload(incident: string, name: string, eventId: string): string {
  const at = "2026-05-01T00:00:00.000Z";
  return JSON.stringify({
    meta: { event_id: eventId, generated_at: new Date().toISOString() },
    id: eventId,
    incident: {
      id: incident, name, status: "investigating", impact: "minor", created_at: at, updated_at: at, started_at: at, resolved_at: null,
      shortlink: null, components: [], page_id: "p", postmortem_body: null, postmortem_published_at: null, scheduled_for: null, scheduled_until: null,
      incident_updates: [{ id: `${incident}-u`, status: "investigating", body: name, created_at: at, display_at: at, updated_at: at }],
    },
  });
}

async function startHookServer(dbFile: string): Promise<{ child: ChildProcess; base: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "tests", "support", "hook-server.ts"), dbFile, "0"], {
    cwd: ROOT,
    env: {
      ...process.env,
      REDLINE_HOOK_RATE_PER_SECOND: "5",
      REDLINE_HOOK_BURST: "20",
      REDLINE_HOOK_CEILING_PER_SECOND: "200",
      REDLINE_HOOK_CEILING_BURST: "400",
      REDLINE_HOOK_DEBOUNCE_SECONDS: "2",
      REDLINE_ALERT_INTERVAL_SECONDS: "4",
    },
    stdio: ["ignore", "pipe", "ignore"],
  });
  const port = await new Promise<string>((resolve, reject) => {
    let printed = "";
    child.stdout?.on("data", (d: Buffer) => {
      printed += d.toString();
      const m = /listening on (\d+)/.exec(printed);
      if (m?.[1]) resolve(m[1]);
    });
    child.once("exit", (code) => reject(new Error(`bench: the hook server exited ${code}`)));
  });
  return { child, base: `http://127.0.0.1:${port}` };
}

/** The other source's pushes until `running` says stop, each one's answer time in ms. */
async function calmPushes(url: string, running: () => boolean, first: number): Promise<number[]> {
  const times: number[] = [];
  for (let n = first; running(); n += 1) {
    const started = performance.now();
    const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: payload("calm-1", `Calm update ${n}`, `calm-${n}`) });
    await response.arrayBuffer();
    if (response.status !== 202) throw new Error(`bench: a push of the other source was answered ${response.status}`);
    times.push(performance.now() - started);
    await new Promise((r) => setTimeout(r, CALM_PACING_MS));
  }
  return times;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
}

function row(phase: string, times: readonly number[]): string {
  const sorted = [...times].sort((a, b) => a - b);
  return `${phase.padEnd(36)} ${String(times.length).padStart(6)} ${percentile(sorted, 0.5).toFixed(1).padStart(8)} ${percentile(sorted, 0.99).toFixed(1).padStart(8)} ${(sorted.at(-1) ?? 0).toFixed(1).padStart(8)}`;
}

export async function runHookFloodBenchmark(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "redline-hook-bench-"));
  const dbFile = path.join(dir, "bench.db");
  const db = openDatabase(dbFile);
  for (const slug of ["flood", "calm"]) {
    await addVendor(db, { slug, name: slug, platform: "statuspage", url: `https://status.${slug}.example/` }, "user");
    await setHookSecretHash(db, slug, createHash("sha256").update(`${SECRET}-${slug}`).digest("hex"));
  }
  closeDatabase(db);
  const server = await startHookServer(dbFile);
  try {
    const calmUrl = `${server.base}/api/v1/hooks/calm/${SECRET}-calm`;
    const aloneUntil = performance.now() + (SECONDS * 1000) / 4;
    const alone = await calmPushes(calmUrl, () => performance.now() < aloneUntil, 0);
    let flooding = true;
    const beside = calmPushes(calmUrl, () => flooding, alone.length);
    let sent = 0;
    const flood = await autocannon({
      url: server.base,
      connections: FLOOD_CONNECTIONS,
      duration: SECONDS,
      overallRate: FLOOD_RATE,
      requests: [
        {
          method: "POST",
          path: `/api/v1/hooks/flood/${SECRET}-flood`,
          headers: { "content-type": "application/json" },
          setupRequest: (request) => ({ ...request, body: payload("flood-1", `Flood update ${sent % 8}`, `evt-${sent++}`) }),
        },
      ],
    });
    flooding = false;
    const during = await beside;
    console.log(`${os.cpus().length} CPUs, Node ${process.version}; flood ${FLOOD_RATE}/s asked over ${FLOOD_CONNECTIONS} connections for ${SECONDS} s`);
    console.log("phase                                pushes   p50 ms   p99 ms   max ms");
    console.log(row("other source, alone", alone));
    console.log(row("other source, beside the flood", during));
    console.log(
      `flood: ${flood.requests.average.toFixed(0)} pushes/s answered, latency p50 ${flood.latency.p50} ms, p99 ${flood.latency.p99} ms, ` +
        `${flood.errors} errors, ${flood.timeouts} timeouts`,
    );
  } finally {
    const exited = new Promise((resolve) => server.child.once("exit", resolve));
    server.child.kill("SIGTERM");
    await exited;
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
