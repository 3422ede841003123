/**
 * The page as it was at any moment (`findStatusAt` and its shaping, as the CLI, the API and the
 * page run them), p50/p99 over random vendors and instants of the component archive
 * (bench/component-archive.ts: 1,000 vendors × 30 components × 2 years), in process, on SQLite
 * and on a PostgreSQL copy of it. Goal: p99 under 50 ms.
 */
import { onEachSeedCopy } from "@/bench/bench-databases";
import { END_MS, ensureComponentSeed, SPAN_MS } from "@/bench/component-archive";
import { createRandom } from "@/bench/synthetic-text";
import { closeStore, openStore } from "@/db/client";
import { findStatusAt } from "@/db/queries/status-at";
import { toStatusPage } from "@/lib/components/status-view";
import { statusRules } from "@/lib/now-rules";

const SAMPLE = Number(process.env.BENCH_STATUS_SAMPLE ?? 2_000);

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
}

export async function runComponentStatesBenchmark(): Promise<void> {
  const seed = ensureComponentSeed();
  console.log(`archive: ${seed.vendors} vendors, ${seed.components} components, ${seed.runs} component runs, ${seed.captures} captures, ${seed.incidents} incidents, ${seed.sizeMb.toFixed(0)} MB${seed.built ? `, built in ${seed.seconds.toFixed(0)} s` : ""}`);
  await onEachSeedCopy(seed.file, async ({ location }) => {
    const db = await openStore(location, { readonly: true });
    try {
      const slugs = (await db.connection.prepare<[], { slug: string }>("SELECT slug FROM vendors ORDER BY id").all()).map((r) => r.slug);
      const random = createRandom(7);
      const rules = statusRules();
      // Warm the statements and the cache a little, as a running server would be.
      for (let i = 0; i < 50; i += 1) await findStatusAt(db, slugs[i % slugs.length] ?? "", new Date(END_MS - i * 3_600_000).toISOString(), rules);
      const times: number[] = [];
      let components = 0;
      let incidents = 0;
      for (let i = 0; i < SAMPLE; i += 1) {
        const slug = slugs[Math.floor(random() * slugs.length)] ?? "";
        const at = new Date(END_MS - SPAN_MS + Math.floor(random() * SPAN_MS)).toISOString();
        const started = performance.now();
        const facts = await findStatusAt(db, slug, at, rules);
        if (!facts) throw new Error(`bench: no vendor ${slug}`);
        const page = toStatusPage(facts);
        times.push(performance.now() - started);
        components += page.view.components.length;
        incidents += page.view.incidents.length;
      }
      times.sort((a, b) => a - b);
      const p99 = percentile(times, 0.99);
      console.log(
        `state as of a moment, ${SAMPLE} random vendors and instants: p50 ${percentile(times, 0.5).toFixed(2)} ms, p90 ${percentile(times, 0.9).toFixed(2)} ms, ` +
          `p99 ${p99.toFixed(2)} ms, max ${percentile(times, 1).toFixed(2)} ms (${(components / SAMPLE).toFixed(1)} components, ${(incidents / SAMPLE).toFixed(2)} open incidents a view)`,
      );
      console.log(`goal p99 under 50 ms: ${p99 < 50 ? "met" : "NOT met"}`);
    } finally {
      await closeStore(db);
    }
  });
}
