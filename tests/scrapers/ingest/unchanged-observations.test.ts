import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { RedlineDb } from "@/db/client";
import { queueJob } from "@/db/operations/derivation-jobs";
import { loadVendorExport } from "@/db/queries/incident-history";
import { addVendor, ensureVendor, getVendorBySlug } from "@/db/settings/vendors";
import { sha256Hex } from "@/lib/canonicalize";
import { renderExportJson } from "@/lib/export-document";
import { importSnapshots, type SnapshotSource } from "@/scrapers/ingest/import-snapshots";
import { getPlatform } from "@/scrapers/platforms";
import { Scheduler } from "@/scrapers/poller/scheduler";
import { runPendingJobs } from "@/scrapers/rederive/job-runner";
import { lifecycleEvents } from "@/simulator/scenario";
import { type Simulator, startSimulator } from "@/simulator/server";
import { corpusSnapshots, describeCorpus, observedAtOf } from "@/tests/support/corpus";
import { freshDatabase, queryRow } from "@/tests/support/database";
import { simulatorPollDeps } from "@/tests/support/poll-deps";

/**
 * Unchanged observations (repeated identical snapshots, 304s, identical bodies) are stored as runs;
 * the history they give must be the one recorded when every observation had a row of its own.
 * The golden exports were written by the code that gave each observation its own row.
 */
const GOLDEN_DIR = path.join(__dirname, "..", "..", "fixtures", "golden");

function expectGolden(name: string, actual: string): void {
  const file = path.join(GOLDEN_DIR, name);
  if (process.env.UPDATE_GOLDEN === "1") fs.writeFileSync(file, actual);
  expect(actual).toBe(fs.readFileSync(file, "utf8"));
}

/**
 * The corpus may not be copied into the repository, and an export of it is a copy: its golden is
 * kept as the export's SHA-256 (one "<name> <hex>" line per export).
 */
function expectGoldenDigest(name: string, actual: string): void {
  const file = path.join(GOLDEN_DIR, "runs-corpus-exports.sha256");
  const lines = new Map(fs.existsSync(file) ? fs.readFileSync(file, "utf8").trim().split("\n").map((l) => l.split(" ") as [string, string]) : []);
  const digest = sha256Hex(actual);
  if (process.env.UPDATE_GOLDEN === "1") {
    lines.set(name, digest);
    fs.writeFileSync(file, `${[...lines].sort().map(([k, v]) => `${k} ${v}`).join("\n")}\n`);
  }
  expect(digest).toBe(lines.get(name));
}

async function exportOf(db: RedlineDb, slug: string): Promise<string> {
  const doc = await loadVendorExport(db, slug);
  if (!doc) throw new Error(`no vendor ${slug}`);
  return renderExportJson(doc);
}

async function rederive(db: RedlineDb, slug: string): Promise<void> {
  const vendor = await getVendorBySlug(db, slug);
  if (!vendor) throw new Error(`no vendor ${slug}`);
  await queueJob(db, vendor.id, "requested", null);
  await runPendingJobs(db, { vendorId: vendor.id });
}

async function captureRows(db: RedlineDb): Promise<{ rows: number; observations: number }> {
  return (await queryRow<{ rows: number; observations: number }>(db, "SELECT count(*) AS rows, sum(observations) AS observations FROM captures")) ?? { rows: 0, observations: 0 };
}

function shifted(iso: string, ms: number): string {
  return new Date(Date.parse(iso) + ms).toISOString();
}

/** Each file, then copies of it a few seconds later: a folder where most snapshots repeat the one before. */
function withRepeats(files: readonly string[], source: string, repeats: number, offsetMs = 0, spacingMs = 1_000): SnapshotSource[] {
  return files.flatMap((file) => {
    const at = shifted(observedAtOf(file), offsetMs);
    return Array.from({ length: repeats + 1 }, (_, i) => ({
      label: `${file}#${i}`, observedAt: shifted(at, i * spacingMs), source, read: () => fs.readFileSync(file),
    }));
  });
}

describeCorpus("corpus: repeated identical snapshots as runs", () => {
  it("a summary.json folder with every snapshot repeated three times exports as before, and again after rederive", async () => {
    const db = await freshDatabase();
    const platform = getPlatform("statuspage-summary");
    if (!platform) throw new Error("no platform");
    const vendor = await ensureVendor(db, { slug: "jira", name: "Jira", platform: platform.name });
    const snapshots = withRepeats(corpusSnapshots("statuspage-summary-jira").slice(0, 120), "jira_summary_v1.json", 3);
    const first = await importSnapshots(db, vendor, platform, snapshots);
    expect(first.captures).toBe(snapshots.length);
    expect(await captureRows(db)).toEqual({ rows: 120, observations: snapshots.length });
    expectGoldenDigest("jira", await exportOf(db, "jira"));
    const again = await importSnapshots(db, vendor, platform, snapshots);
    expect(again).toMatchObject({ captures: 0, duplicates: snapshots.length, versions: 0 });
    await rederive(db, "jira");
    expectGoldenDigest("jira", await exportOf(db, "jira"));
  });

  it("summary.json and a history.atom interleaved in one vendor, both repeating, export as before, and again after rederive", async () => {
    const db = await freshDatabase();
    const summary = getPlatform("statuspage-summary");
    const atom = getPlatform("statuspage-atom");
    if (!summary || !atom) throw new Error("no platform");
    const vendor = await ensureVendor(db, { slug: "github", name: "GitHub", platform: "statuspage" });
    const summaryFiles = corpusSnapshots("statuspage-summary-github-2025").slice(0, 96);
    // The atom's daily snapshots moved into the summary's span, one every six hours, so that the two interleave.
    const start = Date.parse(observedAtOf(summaryFiles[0] ?? ""));
    const atomSnapshots = corpusSnapshots("atom-github-history").slice(0, 8).flatMap((file, i) =>
      Array.from({ length: 4 }, (_, r) => ({
        label: `${file}#${r}`, observedAt: new Date(start + i * 6 * 3_600_000 + r * 1_500_000 + 30_000).toISOString(),
        source: "github-status-history.atom", read: () => fs.readFileSync(file),
      })),
    );
    await importSnapshots(db, vendor, summary, withRepeats(summaryFiles, "github_summary_v1.json", 2, 0, 240_000));
    await importSnapshots(db, vendor, atom, atomSnapshots);
    const stored = await captureRows(db);
    expect(stored.observations).toBe(summaryFiles.length * 3 + atomSnapshots.length);
    expect(stored.rows).toBeLessThan(stored.observations / 2);
    expectGoldenDigest("github-two-sources", await exportOf(db, "github"));
    await rederive(db, "github");
    expectGoldenDigest("github-two-sources", await exportOf(db, "github"));
  });
});

/** The simulator listens on free ports: its origin, and the hashes of incidents whose links name it, are left out. */
function withoutPorts(json: string): string {
  return json.replace(/http:\/\/127\.0\.0\.1:\d+/g, "http://simulator").replace(/"hash": "[0-9a-f]{64}"/g, '"hash": "…"');
}

describe("a simulated poll history with many unchanged polls", () => {
  let sim: Simulator | null = null;
  afterEach(async () => {
    await sim?.stop();
    sim = null;
  });

  it("exports as before, and again after rederive", async () => {
    const START = "2026-03-02T00:00:00.000Z";
    sim = await startSimulator({ vendors: [{ slug: "acme", family: "statuspage" }, { slug: "beta", family: "gcp" }], acceleration: 0, start: START, seed: 11 });
    const db = await freshDatabase();
    for (const v of sim.vendors) await addVendor(db, { slug: v.slug, name: v.name, platform: v.family, url: v.url }, "user");
    const scheduler = new Scheduler(simulatorPollDeps(db, sim), { concurrency: 1, policy: { intervalMs: 60_000, maxBackoffMs: 3_600_000, jitter: 0 } });
    const end = shifted(START, 6 * 86_400_000);
    const times = [...new Set(sim.vendors.flatMap((v) => lifecycleEvents(v.scenario, START, end).map((e) => e.at)))].sort();
    await scheduler.runOnce();
    for (const at of times) {
      // The change, then unchanged polls a minute apart.
      for (const offset of [1_000, 61_000, 121_000, 181_000]) {
        sim.setClock(shifted(at, offset));
        await scheduler.runOnce();
      }
    }
    const stored = await captureRows(db);
    expect(stored.rows).toBeLessThan(stored.observations / 3);
    const before = { acme: withoutPorts(await exportOf(db, "acme")), beta: withoutPorts(await exportOf(db, "beta")) };
    expectGolden("runs-poll-acme-export.json", before.acme);
    expectGolden("runs-poll-beta-export.json", before.beta);
    await rederive(db, "acme");
    await rederive(db, "beta");
    expect(withoutPorts(await exportOf(db, "acme"))).toBe(before.acme);
    expect(withoutPorts(await exportOf(db, "beta"))).toBe(before.beta);
  });
});
