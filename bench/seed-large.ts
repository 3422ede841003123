/**
 * The large archive the web benchmark loads: 100,000 incidents and about 500,000 versions across
 * 200 vendors, recorded through recordCapture exactly as polls of a Statuspage incidents.json
 * would be (8 new incidents per poll, each listed for 6 polls while it is updated, resolved and
 * edited, then aged out). Built once and cached under data/, keyed by SEED_VERSION and the sizes;
 * later migrations are applied when it is opened. Bump SEED_VERSION when the generator or the
 * write path changes what is stored.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { closeDatabase, openDatabase } from "@/db/client";
import { ensureVendor } from "@/db/settings/vendors";
import { getPlatform } from "@/scrapers/platforms";
import { tidySearchIndex } from "@/scrapers/poller/search-upkeep";
import { createVendors } from "@/bench/synthetic-incidents";
import { recordSyntheticPolls } from "@/bench/synthetic-polls";
import { createRandom } from "@/bench/synthetic-text";

const SEED_VERSION = "5";
const INCIDENTS = Number(process.env.BENCH_WEB_INCIDENTS ?? 100_000);
const VENDORS = Number(process.env.BENCH_WEB_VENDORS ?? 200);
const END_MS = Date.parse("2026-11-01T00:00:00.000Z");
const SPAN_MS = 3 * 365 * 86_400_000;
const PLATFORM = "statuspage-incidents";

export interface SeedStats {
  file: string;
  built: boolean;
  seconds: number;
  vendors: number;
  incidents: number;
  versions: number;
  captures: number;
  sizeMb: number;
}

function seedKey(): string {
  return createHash("sha256").update(`${SEED_VERSION}/${INCIDENTS}/${VENDORS}`).digest("hex").slice(0, 10);
}

/** Where the cached database for the current generator and schema lives. */
export function largeSeedFile(): string {
  return path.join(process.cwd(), "data", `bench-web-v${SEED_VERSION}-${seedKey()}.db`);
}

async function buildSeed(file: string): Promise<SeedStats> {
  const started = performance.now();
  const tmp = `${file}.tmp`;
  for (const f of [tmp, `${tmp}-wal`, `${tmp}-shm`]) fs.rmSync(f, { force: true });
  const db = openDatabase(tmp);
  // Index pages of a half-million-version archive do not fit the default 2 MB cache.
  db.$client.pragma("cache_size = -262144");
  const random = createRandom(42);
  let captures = 0;
  let versions = 0;
  const vendors = createVendors(random, VENDORS, INCIDENTS);
  const platform = getPlatform(PLATFORM);
  if (!platform) throw new Error(`seed: no platform ${PLATFORM}`);
  for (const [vendorIndex, v] of vendors.entries()) {
    const vendor = await ensureVendor(db, { slug: v.slug, name: v.name, platform: PLATFORM }, new Date(END_MS - SPAN_MS).toISOString());
    const recorded = await recordSyntheticPolls(db, random, vendor, v, platform, { endMs: END_MS, spanMs: SPAN_MS });
    captures += recorded.captures;
    versions += recorded.versions;
    if ((vendorIndex + 1) % 20 === 0) {
      console.error(`seed: ${vendorIndex + 1}/${vendors.length} vendors, ${versions} versions, ${((performance.now() - started) / 1000).toFixed(0)} s`);
    }
  }
  const incidents = db.$client.prepare<[], { n: number }>("SELECT count(*) AS n FROM incidents").get()?.n ?? 0;
  // As the poller's daily upkeep leaves it (scrapers/poller/search-upkeep.ts).
  await tidySearchIndex(db);
  db.$client.pragma("wal_checkpoint(TRUNCATE)");
  closeDatabase(db);
  fs.renameSync(tmp, file);
  for (const f of [`${tmp}-wal`, `${tmp}-shm`]) fs.rmSync(f, { force: true });
  return {
    file, built: true, seconds: (performance.now() - started) / 1000, vendors: vendors.length, incidents, versions, captures,
    sizeMb: fs.statSync(file).size / 1e6,
  };
}

/** The cached database, built first (in its own process, timed) when it is missing. */
export function ensureLargeSeed(): SeedStats {
  const file = largeSeedFile();
  if (fs.existsSync(file)) {
    const db = openDatabase(file);
    const count = (table: string) => db.$client.prepare<[], { n: number }>(`SELECT count(*) AS n FROM ${table}`).get()?.n ?? 0;
    const stats = {
      file, built: false, seconds: 0, vendors: count("vendors"), incidents: count("incidents"), versions: count("incident_versions"),
      captures: count("captures"), sizeMb: fs.statSync(file).size / 1e6,
    };
    closeDatabase(db);
    return stats;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // Older generations of the cache are a few GB each; seeds of other sizes of this generation stay.
  const current = `bench-web-v${SEED_VERSION}-`;
  for (const old of fs.readdirSync(path.dirname(file)).filter((n) => /^bench-web-.+\.db(?:-wal|-shm)?$/.test(n) && !n.startsWith(current))) {
    fs.rmSync(path.join(path.dirname(file), old), { force: true });
  }
  const out = execFileSync(process.execPath, ["--import", "tsx", __filename, "--build", file], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  return JSON.parse(out.trim().split("\n").at(-1) ?? "{}") as SeedStats;
}

const buildFlag = process.argv.indexOf("--build");
if (buildFlag >= 0) {
  void buildSeed(process.argv[buildFlag + 1] ?? largeSeedFile()).then((stats) => process.stdout.write(`${JSON.stringify(stats)}\n`));
} else if (require.main === module) {
  console.log(JSON.stringify(ensureLargeSeed()));
}
