/**
 * The archive the component benchmarks load: 1,000 vendors over two years, each with 30 components
 * (five groups of five, and the groups themselves) whose states change as real grids do (a member
 * degraded or out for ten minutes to six hours about once a week, now and then a maintenance), each
 * change observed by a poll of the vendor's components.json, polls every five minutes between
 * stored as capture runs; and the vendors' incidents recorded through the write path (30,000, long-
 * tailed). The component rows are written directly, as the record path would write them (it is
 * tested against real grids elsewhere): deriving 5 million changes through it would take hours.
 * Built once and cached under data/, keyed by SEED_VERSION and the sizes.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { closeDatabase, openDatabase } from "@/db/client";
import { ensureVendor } from "@/db/settings/vendors";
import { sha256Hex } from "@/lib/canonicalize";
import type { ComponentStatus } from "@/lib/components/component-status";
import { createVendors } from "@/bench/synthetic-incidents";
import { recordSyntheticPolls } from "@/bench/synthetic-polls";
import { createRandom, providerId, type Random } from "@/bench/synthetic-text";
import { getPlatform } from "@/scrapers/platforms";

const SEED_VERSION = "1";
const VENDORS = Number(process.env.BENCH_COMPONENT_VENDORS ?? 1_000);
const INCIDENTS = Number(process.env.BENCH_COMPONENT_INCIDENTS ?? 30_000);
const GROUPS = 5;
const PER_GROUP = 5;
export const END_MS = Date.parse("2026-11-01T00:00:00.000Z");
export const SPAN_MS = 2 * 365 * 86_400_000;
const POLL_MS = 5 * 60_000;
const MEAN_GAP_MS = 7 * 86_400_000;
const WORDS: Record<ComponentStatus, string> = {
  operational: "operational", degraded: "degraded_performance", "partial-outage": "partial_outage", "major-outage": "major_outage", maintenance: "under_maintenance", unknown: "unknown",
};

function seedKey(): string {
  return createHash("sha256").update(`${SEED_VERSION}/${VENDORS}/${INCIDENTS}`).digest("hex").slice(0, 10);
}

export function componentSeedFile(): string {
  return path.join(process.cwd(), "data", `bench-components-v${SEED_VERSION}-${seedKey()}.db`);
}

export interface ComponentSeedStats {
  file: string;
  built: boolean;
  seconds: number;
  vendors: number;
  components: number;
  runs: number;
  captures: number;
  incidents: number;
  sizeMb: number;
}

interface Change {
  at: number;
  component: number;
  status: ComponentStatus;
}

/** One member's changes over the span: a degradation or maintenance about once a week, each followed by operational again. */
function memberChanges(random: Random, component: number): Change[] {
  const out: Change[] = [];
  let t = END_MS - SPAN_MS + random() * MEAN_GAP_MS;
  while (t < END_MS) {
    const roll = random();
    const status: ComponentStatus = roll < 0.08 ? "maintenance" : roll < 0.55 ? "degraded" : roll < 0.9 ? "partial-outage" : "major-outage";
    const duration = 10 * 60_000 + random() * 6 * 3_600_000;
    out.push({ at: Math.round(t / POLL_MS) * POLL_MS, component, status });
    if (t + duration < END_MS) out.push({ at: Math.round((t + duration) / POLL_MS) * POLL_MS + POLL_MS, component, status: "operational" });
    t += duration - Math.log(1 - random()) * MEAN_GAP_MS;
  }
  return out;
}

async function buildSeed(file: string): Promise<ComponentSeedStats> {
  const started = performance.now();
  const tmp = `${file}.tmp`;
  for (const f of [tmp, `${tmp}-wal`, `${tmp}-shm`]) fs.rmSync(f, { force: true });
  const db = openDatabase(tmp);
  db.$client.pragma("cache_size = -262144");
  const sqlite = db.$client;
  const random = createRandom(32);
  const platform = getPlatform("statuspage-incidents");
  if (!platform) throw new Error("seed: no statuspage-incidents platform");
  const insertCapture = sqlite.prepare(
    `INSERT INTO captures (vendor_id, source, platform, observed_at, last_observed_at, observations, outcome, hash, incident_count, version_count, recorded_at)
     VALUES (?, ?, 'statuspage-components', ?, ?, ?, 'ok', ?, 0, 0, ?)`,
  );
  const insertSource = sqlite.prepare("INSERT INTO sources (vendor_id, url, platform) VALUES (?, ?, 'statuspage-components') ON CONFLICT DO NOTHING");
  const insertComponent = sqlite.prepare("INSERT INTO components (vendor_id, component_key) VALUES (?, ?)");
  const insertRun = sqlite.prepare(
    `INSERT INTO component_states (component_id, vendor_id, name, group_key, is_group, status, vendor_status, inferred, source, state_since, vendor_changed_at, from_at, from_capture_id, until_at, until_capture_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const setUntil = sqlite.prepare("UPDATE component_states SET until_at = ?, until_capture_id = ? WHERE id = ?");
  let runs = 0;
  let captures = 0;
  const vendors = createVendors(random, VENDORS, INCIDENTS);
  for (const [index, v] of vendors.entries()) {
    const vendor = await ensureVendor(db, { slug: v.slug, name: v.name, platform: "statuspage" }, new Date(END_MS - SPAN_MS).toISOString());
    const recorded = await recordSyntheticPolls(db, random, vendor, v, platform, { endMs: END_MS, spanMs: SPAN_MS });
    captures += recorded.captures;
    const source = `https://status.${v.slug}.example/api/v2/components.json`;
    sqlite.transaction(() => {
      insertSource.run(vendor.id, source);
      const keys: Array<{ key: string; name: string; group: string | null; isGroup: boolean; rowId: number }> = [];
      for (let g = 0; g < GROUPS; g += 1) {
        const groupKey = providerId(random);
        keys.push({ key: groupKey, name: `Group ${g + 1}`, group: null, isGroup: true, rowId: 0 });
        for (let m = 0; m < PER_GROUP; m += 1) keys.push({ key: providerId(random), name: `${v.components[(g * PER_GROUP + m) % v.components.length]?.name ?? "Service"} ${g + 1}.${m + 1}`, group: groupKey, isGroup: false, rowId: 0 });
      }
      for (const k of keys) k.rowId = Number(insertComponent.run(vendor.id, k.key).lastInsertRowid);
      const changes = keys.flatMap((k, i) => (k.isGroup ? [] : memberChanges(random, i))).sort((a, b) => a.at - b.at || a.component - b.component);
      const instants = [END_MS - SPAN_MS, ...new Set(changes.map((c) => c.at))].sort((a, b) => a - b);
      const captureAt = new Map<number, number>();
      for (const [i, at] of instants.entries()) {
        const next = instants[i + 1] ?? END_MS;
        const observations = Math.max(1, Math.floor((next - at) / POLL_MS));
        const last = new Date(at + (observations - 1) * POLL_MS).toISOString();
        const id = Number(insertCapture.run(vendor.id, source, new Date(at).toISOString(), observations > 1 ? last : null, observations, sha256Hex(`${v.slug}/grid/${i}`), new Date(at).toISOString()).lastInsertRowid);
        captureAt.set(at, id);
        captures += 1;
      }
      const first = END_MS - SPAN_MS;
      const open = new Map<number, { row: number; status: ComponentStatus }>();
      const start = (component: number, status: ComponentStatus, at: number) => {
        const k = keys[component];
        if (!k) return;
        const iso = new Date(at).toISOString();
        const row = Number(insertRun.run(k.rowId, vendor.id, k.name, k.group, k.isGroup ? 1 : 0, status, WORDS[status], source, iso, iso, iso, captureAt.get(at) ?? 0, null, null).lastInsertRowid);
        open.set(component, { row, status });
        runs += 1;
      };
      keys.forEach((_, i) => start(i, "operational", first));
      for (const change of changes) {
        const was = open.get(change.component);
        if (!was || was.status === change.status) continue;
        setUntil.run(new Date(change.at).toISOString(), captureAt.get(change.at) ?? 0, was.row);
        start(change.component, change.status, change.at);
      }
    })();
    if ((index + 1) % 50 === 0) console.error(`seed: ${index + 1}/${vendors.length} vendors, ${runs} component runs, ${((performance.now() - started) / 1000).toFixed(0)} s`);
  }
  const count = (table: string) => sqlite.prepare<[], { n: number }>(`SELECT count(*) AS n FROM ${table}`).get()?.n ?? 0;
  const stats = { vendors: count("vendors"), components: count("components"), incidents: count("incidents") };
  sqlite.exec("ANALYZE");
  sqlite.pragma("wal_checkpoint(TRUNCATE)");
  closeDatabase(db);
  fs.renameSync(tmp, file);
  for (const f of [`${tmp}-wal`, `${tmp}-shm`]) fs.rmSync(f, { force: true });
  return { file, built: true, seconds: (performance.now() - started) / 1000, ...stats, runs, captures, sizeMb: fs.statSync(file).size / 1e6 };
}

/** The cached archive, built first (in its own process, timed) when it is missing. */
export function ensureComponentSeed(): ComponentSeedStats {
  const file = componentSeedFile();
  if (fs.existsSync(file)) {
    const db = openDatabase(file);
    const count = (table: string) => db.$client.prepare<[], { n: number }>(`SELECT count(*) AS n FROM ${table}`).get()?.n ?? 0;
    const stats = {
      file, built: false, seconds: 0, vendors: count("vendors"), components: count("components"), runs: count("component_states"), captures: count("captures"),
      incidents: count("incidents"), sizeMb: fs.statSync(file).size / 1e6,
    };
    closeDatabase(db);
    return stats;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const out = execFileSync(process.execPath, ["--import", "tsx", __filename, "--build", file], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  return JSON.parse(out.trim().split("\n").at(-1) ?? "{}") as ComponentSeedStats;
}

const buildFlag = process.argv.indexOf("--build");
if (buildFlag >= 0) {
  void buildSeed(process.argv[buildFlag + 1] ?? componentSeedFile()).then((stats) => process.stdout.write(`${JSON.stringify(stats)}\n`));
}
