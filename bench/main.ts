/** `npm run bench -- <name>`: run one benchmark (or all) and print its figures. */
import { runApiBenchmark } from "@/bench/api-load";
import { runArchiveBenchmark } from "@/bench/archive-size";
import { runCliStartBenchmark } from "@/bench/cli-start";
import { runComponentPagesBenchmark } from "@/bench/component-pages";
import { runComponentStatesBenchmark } from "@/bench/component-states";
import { runHookFloodBenchmark } from "@/bench/hook-flood";
import { runImportBenchmark } from "@/bench/import-corpus";
import { runNotifyBenchmark } from "@/bench/notify-load";
import { runPollBenchmark } from "@/bench/poll-round";
import { runPostgresStatementsBenchmark } from "@/bench/postgres-statements";
import { runRawBodiesBenchmark } from "@/bench/raw-bodies";
import { runSearchLoadBenchmark } from "@/bench/search-load";
import { runSearchBenchmark } from "@/bench/search-queries";
import { runStorageBenchmark } from "@/bench/storage";
import { runVersionReadBenchmark } from "@/bench/version-reads";
import { runUnchangedPollsBenchmark } from "@/bench/unchanged-polls";
import { runWebBenchmark } from "@/bench/web-load";

const BENCHMARKS: Record<string, () => void | Promise<void>> = {
  import: runImportBenchmark,
  poll: runPollBenchmark,
  web: runWebBenchmark,
  api: runApiBenchmark,
  hooks: runHookFloodBenchmark,
  "raw-bodies": runRawBodiesBenchmark,
  storage: runStorageBenchmark,
  archive: runArchiveBenchmark,
  cli: runCliStartBenchmark,
  versions: runVersionReadBenchmark,
  "unchanged-polls": runUnchangedPollsBenchmark,
  search: runSearchBenchmark,
  "search-load": runSearchLoadBenchmark,
  notify: runNotifyBenchmark,
  "component-states": runComponentStatesBenchmark,
  "component-pages": runComponentPagesBenchmark,
  statements: runPostgresStatementsBenchmark,
};

async function main(): Promise<void> {
  // Names, not options nor the value of `--db <dialects>` (bench/bench-databases.ts).
  const args = process.argv.slice(2);
  const asked = args.filter((a, i) => !a.startsWith("-") && args[i - 1] !== "--db");
  const names = asked.length > 0 ? asked : Object.keys(BENCHMARKS);
  for (const name of names) {
    const run = BENCHMARKS[name];
    if (!run) throw new Error(`unknown benchmark ${JSON.stringify(name)} (known: ${Object.keys(BENCHMARKS).join(", ")})`);
    console.log(`== ${name}`);
    await run();
  }
}

main().catch((error: unknown) => {
  console.error(`bench: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
