/**
 * Version reads: any version's full state (`readVersionState`, bounded replay of patches) and an
 * incident page's read (`getIncidentRecord`), p50/p99 over versions in random order, with the
 * bytes of the tables that hold versions and record states. On BENCH_DB (an existing database,
 * say the 100,000-incident archive, opened read-only) or else on the corpus imported afresh.
 * Goal: p99 of a version read within a few milliseconds.
 */
import fs from "node:fs";
import type Database from "better-sqlite3";
import os from "node:os";
import path from "node:path";
import { closeDatabase, openDatabase, type RedlineDb } from "@/db/client";
import { getIncidentRecord } from "@/db/queries/incident-page";
import { readVersionState } from "@/db/history/version-states";
import { ensureVendor } from "@/db/settings/vendors";
import { importSnapshots, listSnapshotFolder } from "@/scrapers/ingest/import-snapshots";
import { getPlatform } from "@/scrapers/platforms";
import { CORPUS_DIR, CORPUS_FOLDERS } from "@/tests/support/corpus-location";

const SAMPLE = 20_000;

function percentiles(ms: number[]): string {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (p: number) => (sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0).toFixed(3);
  return `p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${at(1)} ms`;
}

async function importCorpus(file: string): Promise<void> {
  const db = openDatabase(file);
  try {
    for (const { folder, vendor, platform: name } of CORPUS_FOLDERS) {
      const platform = getPlatform(name);
      if (!platform) throw new Error(`bench: unknown platform ${name}`);
      await importSnapshots(db, await ensureVendor(db, { slug: vendor, platform: platform.name }), platform, listSnapshotFolder(path.join(CORPUS_DIR, folder)).snapshots);
    }
  } finally {
    closeDatabase(db);
  }
}

function tableBytes(sqlite: Database.Database): string {
  try {
    const rows = sqlite
      .prepare<[], { name: string; bytes: number }>(
        "SELECT name, sum(pgsize) AS bytes FROM dbstat WHERE name IN ('incident_versions', 'incident_states', 'capture_bodies') GROUP BY name ORDER BY name",
      )
      .all();
    return rows.map((r) => `${r.name} ${(r.bytes / 1e6).toFixed(1)} MB`).join(", ");
  } catch {
    return "(no dbstat in this SQLite build)";
  }
}

async function measure(db: RedlineDb): Promise<void> {
  const sqlite = db.$client;
  const versions = sqlite
    .prepare<[number], { incidentId: number; seq: number }>("SELECT incident_id AS incidentId, seq FROM incident_versions ORDER BY random() LIMIT ?")
    .all(SAMPLE);
  const full = sqlite.prepare<[], { n: number; full: number }>("SELECT count(*) AS n, count(snapshot) AS full FROM incident_versions").get();
  console.log(`versions: ${full?.n ?? 0}, with a full snapshot: ${full?.full ?? 0}; ${tableBytes(sqlite)}`);
  for (const pass of ["cold", "warm"]) {
    const ms: number[] = [];
    for (const v of versions) {
      const started = performance.now();
      if (!(await readVersionState(db, v.incidentId, v.seq))) throw new Error(`bench: version ${v.incidentId}:${v.seq} unreadable`);
      ms.push(performance.now() - started);
    }
    console.log(`readVersionState, ${versions.length} versions (${pass}): ${percentiles(ms)}`);
  }
  const incidents = sqlite
    .prepare<[number], { vendorId: number; providerId: string }>("SELECT vendor_id AS vendorId, provider_id AS providerId FROM incidents ORDER BY random() LIMIT ?")
    .all(SAMPLE);
  const ms: number[] = [];
  for (const i of incidents) {
    const started = performance.now();
    await getIncidentRecord(db, i.vendorId, i.providerId);
    ms.push(performance.now() - started);
  }
  console.log(`getIncidentRecord, ${incidents.length} incidents: ${percentiles(ms)}`);
}

export async function runVersionReadBenchmark(): Promise<void> {
  const given = process.env.BENCH_DB;
  if (given) {
    const db = openDatabase(given, { readonly: true });
    try {
      await measure(db);
    } finally {
      closeDatabase(db);
    }
    return;
  }
  if (!fs.existsSync(CORPUS_DIR)) throw new Error(`bench: no corpus at ${CORPUS_DIR} (set REDLINE_CORPUS or BENCH_DB)`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "redline-bench-versions-"));
  try {
    const file = path.join(dir, "bench.db");
    await importCorpus(file);
    const db = openDatabase(file);
    try {
      await measure(db);
    } finally {
      closeDatabase(db);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
