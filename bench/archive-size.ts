/**
 * The web benchmark's 100,000-incident archive (bench/seed-large.ts): its bytes on disk, where they
 * are (`redline stats`), and how fast any version of any incident is read back, over a fixed random
 * sample of all its versions, through the query the change page uses.
 */
import { bytesOnDisk, readStatsJson } from "@/bench/redline-cli";
import { ensureLargeSeed } from "@/bench/seed-large";
import { createRandom } from "@/bench/synthetic-text";
import { closeDatabase, openDatabase } from "@/db/client";
import { getVersionDetail, listVersionRefs } from "@/db/queries/incident-page";
import { vendors } from "@/db/schema";
import { formatBytes } from "@/scrapers/cli/stats-command";

const SAMPLE = Number(process.env.BENCH_ARCHIVE_SAMPLE ?? 20_000);

async function timeVersionReads(file: string): Promise<{ versions: number; sampled: number; p50: number; p99: number; max: number }> {
  const db = openDatabase(file);
  try {
    const refs = (await Promise.all(db.select({ id: vendors.id }).from(vendors).all().map((v) => listVersionRefs(db, v.id)))).flat();
    const random = createRandom(7);
    const sample = Array.from({ length: Math.min(SAMPLE, refs.length) }, () => refs[Math.floor(random() * refs.length)]);
    const ms: number[] = [];
    for (const ref of sample) {
      if (!ref) continue;
      const started = performance.now();
      if (!(await getVersionDetail(db, ref.incidentId, ref.seq))) throw new Error(`bench: version ${ref.seq} of incident ${ref.incidentId} is missing`);
      ms.push(performance.now() - started);
    }
    ms.sort((a, b) => a - b);
    const at = (q: number) => ms[Math.max(0, Math.ceil(q * ms.length) - 1)] ?? Number.NaN;
    return { versions: refs.length, sampled: ms.length, p50: at(0.5), p99: at(0.99), max: ms.at(-1) ?? Number.NaN };
  } finally {
    closeDatabase(db);
  }
}

export async function runArchiveBenchmark(): Promise<void> {
  const seed = ensureLargeSeed();
  console.log(
    `database: ${seed.file}, ${seed.vendors} vendors, ${seed.incidents} incidents, ${seed.versions} versions, ${seed.captures} captures` +
      (seed.built ? `, built in ${seed.seconds.toFixed(0)} s` : " (cached)"),
  );
  console.log(`on disk (db + -wal + -shm): ${formatBytes(bytesOnDisk(seed.file))}`);
  const stats = await readStatsJson(seed.file);
  console.log("table (with its indexes)      rows      total");
  for (const t of stats.tables.slice(0, 8)) {
    console.log(`${t.name.padEnd(26)} ${String(t.rows).padStart(8)} ${formatBytes(t.tableBytes + t.indexBytes).padStart(10)}`);
  }
  const reads = await timeVersionReads(seed.file);
  console.log(
    `version read (getVersionDetail), ${reads.sampled} of ${reads.versions} versions at random: ` +
      `p50 ${reads.p50.toFixed(3)} ms, p99 ${reads.p99.toFixed(3)} ms, max ${reads.max.toFixed(1)} ms`,
  );
}
