/**
 * Import benchmark: the whole public corpus into a fresh database, then again (all unchanged),
 * beside simply reading and parsing the same files. Each phase runs in its own process so peak
 * memory is its own, on SQLite and on PostgreSQL in the same run (bench/bench-databases.ts).
 * Goals: first import within 3x of read+parse, second within 1.5x.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { dialectLabel, onEachDatabase } from "@/bench/bench-databases";
import { closeStore, openStore } from "@/db/client";
import { ensureVendor } from "@/db/settings/vendors";
import { importSnapshots, listSnapshotFolder } from "@/scrapers/ingest/import-snapshots";
import { getPlatform } from "@/scrapers/platforms";
import { CORPUS_DIR, CORPUS_FOLDERS } from "@/tests/support/corpus-location";

interface PhaseResult {
  phase: string;
  snapshots: number;
  bytes: number;
  ms: number;
  peakRssMb: number;
}

function requirePlatform(name: string) {
  const platform = getPlatform(name);
  if (!platform) throw new Error(`bench: unknown platform ${name}`);
  return platform;
}

async function runParse(): Promise<PhaseResult> {
  let snapshots = 0;
  let bytes = 0;
  const started = performance.now();
  for (const { folder, vendor, platform } of CORPUS_FOLDERS) {
    const p = requirePlatform(platform);
    for (const s of listSnapshotFolder(path.join(CORPUS_DIR, folder)).snapshots) {
      const body = s.read();
      bytes += body.byteLength;
      snapshots += 1;
      try {
        await p.parse(body, { vendor, source: s.source, observedAt: s.observedAt });
      } catch {
        // Failed and invalid snapshots cost their parse attempt, as in an import.
      }
    }
  }
  return { phase: "read+parse", snapshots, bytes, ms: performance.now() - started, peakRssMb: 0 };
}

async function runImport(dbFile: string, phase: string): Promise<PhaseResult> {
  const db = await openStore(dbFile);
  let snapshots = 0;
  let bytes = 0;
  const started = performance.now();
  try {
    for (const { folder, vendor, platform } of CORPUS_FOLDERS) {
      const p = requirePlatform(platform);
      const { snapshots: list } = listSnapshotFolder(path.join(CORPUS_DIR, folder));
      const counted = list.map((s) => ({ ...s, read: () => { const b = s.read(); bytes += b.byteLength; return b; } }));
      snapshots += list.length;
      await importSnapshots(db, await ensureVendor(db, { slug: vendor, platform: p.name }), p, counted);
    }
  } finally {
    await closeStore(db);
  }
  return { phase, snapshots, bytes, ms: performance.now() - started, peakRssMb: 0 };
}

async function child(phase: string, dbFile: string): Promise<void> {
  const result = phase === "parse" ? await runParse() : await runImport(dbFile, phase);
  result.peakRssMb = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

function runPhase(phase: string, dbFile: string): PhaseResult {
  const out = execFileSync(process.execPath, ["--import", "tsx", __filename, "--phase", phase, dbFile], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
    maxBuffer: 16 * 1024 * 1024,
  });
  const line = out.trim().split("\n").at(-1) ?? "";
  return JSON.parse(line) as PhaseResult;
}

export async function runImportBenchmark(): Promise<void> {
  if (!fs.existsSync(CORPUS_DIR)) throw new Error(`bench: no corpus at ${CORPUS_DIR} (set REDLINE_CORPUS)`);
  // Reading and parsing touches no database.
  const parse = runPhase("parse", "");
  const runs = await onEachDatabase(async ({ dialect, location }) => {
    const label = dialectLabel(dialect);
    const first = runPhase("first import", location);
    const second = runPhase("second import", location);
    return [
      { ...first, phase: `${label} first` },
      { ...second, phase: `${label} second` },
    ];
  });
  const rows = [parse, ...runs.flatMap((r) => r.result)];
  console.log(`corpus: ${CORPUS_DIR}`);
  console.log("phase               snapshots     MB   seconds  snapshots/s  peak RSS MB  x read+parse");
  for (const r of rows) {
    console.log(
      `${r.phase.padEnd(19)} ${String(r.snapshots).padStart(9)} ${(r.bytes / 1e6).toFixed(1).padStart(6)} ${(r.ms / 1000).toFixed(2).padStart(9)} ` +
        `${(r.snapshots / (r.ms / 1000)).toFixed(0).padStart(12)} ${r.peakRssMb.toFixed(0).padStart(12)} ${(r.ms / parse.ms).toFixed(2).padStart(13)}`,
    );
  }
  for (const { result: [first, second] } of runs) {
    if (!first || !second) continue;
    console.log(`goal ${first.phase} import <= 3x read+parse: ${first.ms <= 3 * parse.ms ? "met" : "NOT met"} (${(first.ms / parse.ms).toFixed(2)}x)`);
    console.log(`goal ${second.phase} import <= 1.5x read+parse: ${second.ms <= 1.5 * parse.ms ? "met" : "NOT met"} (${(second.ms / parse.ms).toFixed(2)}x)`);
  }
}

const phaseFlag = process.argv.indexOf("--phase");
if (phaseFlag >= 0) {
  child(process.argv[phaseFlag + 1] ?? "", process.argv[phaseFlag + 2] ?? "").catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
