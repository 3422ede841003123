import { Command, CommanderError, Option } from "commander";

type Commands<K extends string> = Record<K, (...args: never[]) => Promise<void>>;
type LazyCommands<K extends string, M extends Commands<K>> = { [P in K]: (...args: Parameters<M[P]>) => Promise<void> };

/**
 * A command's module loads when the command runs: loading them all (every parser, the database
 * layer, their packages) was most of the time `--help` took.
 */
function lazily<K extends string, M extends Commands<K>>(load: () => Promise<M>, names: readonly K[]): LazyCommands<K, M> {
  return Object.fromEntries(names.map((name) => [name, async (...args: Parameters<M[K]>) => (await load())[name](...args)])) as LazyCommands<K, M>;
}

const { runCopy } = lazily(() => import("@/scrapers/cli/copy-command"), ["runCopy"]);
const { runExport } = lazily(() => import("@/scrapers/cli/export-command"), ["runExport"]);
const { runImport, runImportGit } = lazily(() => import("@/scrapers/cli/import-command"), ["runImport", "runImportGit"]);
const { runBackup, runMigrate, runRederive, runRestore } = lazily(() => import("@/scrapers/cli/maintenance-commands"), ["runBackup", "runMigrate", "runRederive", "runRestore"]);
const { runPoll } = lazily(() => import("@/scrapers/cli/poll-command"), ["runPoll"]);
const { runPruneRaw } = lazily(() => import("@/scrapers/cli/retention-command"), ["runPruneRaw"]);
const { runStatus } = lazily(() => import("@/scrapers/cli/status-command"), ["runStatus"]);
const { runStats } = lazily(() => import("@/scrapers/cli/stats-command"), ["runStats"]);
const { runVendorsAdd, runVendorsHookSecret, runVendorsList, runVendorsRemove, runVendorsSyncCatalog } = lazily(
  () => import("@/scrapers/cli/vendors-command"),
  ["runVendorsAdd", "runVendorsHookSecret", "runVendorsList", "runVendorsRemove", "runVendorsSyncCatalog"],
);

const { runNotify, runSubscriptionDeliveries, runSubscriptionTest } = lazily(() => import("@/scrapers/cli/notify-command"), ["runNotify", "runSubscriptionDeliveries", "runSubscriptionTest"]);
const { runSubscriptionsAdd, runSubscriptionsList, runSubscriptionsRemove } = lazily(
  () => import("@/scrapers/cli/subscriptions-command"),
  ["runSubscriptionsAdd", "runSubscriptionsList", "runSubscriptionsRemove"],
);
const { runWatchlistsAdd, runWatchlistsList, runWatchlistsRemove } = lazily(() => import("@/scrapers/cli/watchlists-command"), ["runWatchlistsAdd", "runWatchlistsList", "runWatchlistsRemove"]);

const program = new Command()
  .name("redline")
  .description("Redline: an archive of vendor status-page incidents, every version of each.")
  .showHelpAfterError("(run with --help for usage)")
  .exitOverride();

const dbOption = ["--db <file or url>", "SQLite database file, or a postgres:// URL (default: $REDLINE_DATABASE_URL, else $REDLINE_DB or data/redline.db)"] as const;
/** Each import command's --platform; the list of platforms is filled in only for their help (see main). */
const importPlatformOptions = new Map<string, Option>();

function importPlatformOption(command: string): Option {
  const option = new Option("--platform <platform>", "the snapshots' format").makeOptionMandatory();
  importPlatformOptions.set(command, option);
  return option;
}

const addSourceImportOption = ["--add-source", "the snapshots are another source of an existing vendor of another platform family"] as const;
const notifyImportOption = ["--notify", "notify subscriptions of the versions added, through the same outbox, batching and digests as polls (without it a backfill notifies no one)"] as const;

program
  .command("migrate")
  .description("create the database if needed, apply all migrations, and convert raw bodies stored whole (gzip) to deltas, after a backup")
  .option("--body-batch <n>", "raw bodies converted per transaction (default 200)")
  .option(...dbOption)
  .action((opts: { db?: string; bodyBatch?: string }) => runMigrate(opts));

program
  .command("import")
  .description("import a folder of snapshots named <YYYYMMDDTHHMMSSZ>__<name>, in name order")
  .argument("<dir>", "folder of snapshot files")
  .requiredOption("--vendor <slug>", "vendor slug, e.g. github")
  .addOption(importPlatformOption("import"))
  .option("--name <name>", "vendor display name (first import only; default: the slug)")
  .option(...addSourceImportOption)
  .option(...notifyImportOption)
  .option(...dbOption)
  .action((dir: string, opts) => runImport(dir, opts));

program
  .command("import-git")
  .description("import every committed version of one file of a git-scraping repository (commit time = observation time)")
  .argument("<repo-dir>", "the repository's working copy")
  .argument("<path-in-repo>", "the scraped file, e.g. github_summary_v1.json")
  .requiredOption("--vendor <slug>", "vendor slug")
  .addOption(importPlatformOption("import-git"))
  .option("--name <name>", "vendor display name (first import only)")
  .option(...addSourceImportOption)
  .option(...notifyImportOption)
  .option(...dbOption)
  .action((repo: string, file: string, opts) => runImportGit(repo, file, opts));

program
  .command("export")
  .description("print a vendor's incident history (or one incident's) as JSON or Markdown")
  .requiredOption("--vendor <slug>", "vendor slug")
  .option("--incident <id>", "only this incident (the vendor's incident id)")
  .option("--version <seq>", "only this version of the incident (a change)")
  .requiredOption("--format <format>", "json or md")
  .option(...dbOption)
  .action((opts) => runExport(opts));

program
  .command("status")
  .description("a vendor's status page as it was at a moment (or now): the component grid as observed then and the incidents open then")
  .requiredOption("--vendor <slug>", "vendor slug")
  .option("--at <ISO time>", "the moment, e.g. 2025-05-01T14:05:00Z (UTC without an offset; default: now)")
  .addOption(new Option("--format <format>", "text or json").choices(["text", "json"]).default("text"))
  .option(...dbOption)
  .action((opts: { vendor: string; at?: string; format: "text" | "json"; db?: string }) => runStatus(opts));

program
  .command("rederive")
  .description("rebuild a vendor's history from its stored raw captures with the current parsers (a running poller does this by itself after an upgrade)")
  .option("--vendor <slug>", "vendor slug")
  .option("--status", "list the re-derivation jobs and their progress")
  .option(...dbOption)
  .action((opts) => runRederive(opts));

program
  .command("prune-raw")
  .description("delete the raw bodies of captures last observed more than N days ago; captures, incidents and versions stay, and re-derivation then covers only the kept period")
  .option("--keep-raw-days <n>", "days of raw bodies to keep (default: $REDLINE_KEEP_RAW_DAYS)")
  .option("--vendor <slug>", "only this vendor")
  .option(...dbOption)
  .action((opts: { db?: string; keepRawDays?: string; vendor?: string }) => runPruneRaw(opts));

program
  .command("backup")
  .description("copy the database to a new file with SQLite's online backup; polling and the web app keep running")
  .argument("<file>", "the backup file to create")
  .option(...dbOption)
  .action((file: string, opts: { db?: string }) => runBackup(file, opts));

program
  .command("restore")
  .description("replace the database with a backup (checked first; the current database is kept beside it). Stop Redline first")
  .argument("<file>", "a file made by `backup`")
  .option(...dbOption)
  .action((file: string, opts: { db?: string }) => runRestore(file, opts));

program
  .command("copy")
  .description("copy the whole archive to another database (SQLite file or postgres:// URL, either way); run again after an interruption, it resumes")
  .requiredOption("--from <file or url>", "the archive to copy")
  .requiredOption("--to <file or url>", "an empty database, or one an interrupted copy of the same archive left")
  .option("--batch <rows>", "rows per transaction on the target (default 1000)")
  .action((opts: { from: string; to: string; batch?: string }) => runCopy(opts));

program
  .command("stats")
  .description("bytes per table (with its indexes) and per vendor, and the ratio of the database to the raw bytes recorded")
  .option("--json", "print the figures as JSON")
  .option(...dbOption)
  .action((opts: { db?: string; json?: boolean }) => runStats(opts));

const vendorsCommand = program.command("vendors").description("the vendors Redline polls");

vendorsCommand
  .command("add")
  .description("poll a vendor: its status page's base URL, or an exact endpoint")
  .requiredOption("--slug <slug>", "short id, e.g. acme")
  .requiredOption("--name <name>", "display name")
  .requiredOption("--platform <platform>", "live platform, e.g. statuspage (see `vendors platforms`)")
  .requiredOption("--url <url>", "status page base URL or endpoint URL")
  .option("--interval <seconds>", "seconds between polls (default: REDLINE_POLL_INTERVAL_SECONDS)")
  .option("--add-source", "poll an existing vendor that is imported-only or removed, keeping its history (same platform family)")
  .option(...dbOption)
  .action((opts) => runVendorsAdd(opts));

vendorsCommand
  .command("remove")
  .description("stop polling a vendor; its history and raw captures stay, and `vendors add --add-source` polls it again")
  .argument("<slug>", "vendor slug")
  .option("--purge", "delete the vendor and everything archived of it: incidents, versions, captures and the raw bodies no other vendor shares")
  .option(...dbOption)
  .action((slug: string, opts) => runVendorsRemove(slug, opts));

vendorsCommand
  .command("hook-secret")
  .description("make a new webhook secret for a vendor and print its push URL path (shown once; only a hash is kept)")
  .argument("<slug>", "vendor slug")
  .option("--clear", "remove the secret: the vendor's pushes are refused")
  .option(...dbOption)
  .action((slug: string, opts) => runVendorsHookSecret(slug, opts));

vendorsCommand
  .command("list")
  .description("every vendor: platform, whether it is polled, the last poll, incidents")
  .option(...dbOption)
  .action((opts) => runVendorsList(opts));

vendorsCommand
  .command("sync-catalog")
  .description("add the built-in catalog of vendors (vendors you removed stay removed)")
  .option(...dbOption)
  .action((opts) => runVendorsSyncCatalog(opts));

vendorsCommand
  .command("platforms")
  .description("the live platforms a vendor can be polled with")
  .action(async () => {
    const { LIVE_PLATFORMS } = await import("@/scrapers/live");
    for (const p of LIVE_PLATFORMS) process.stdout.write(`${p.name.padEnd(22)} ${p.description}\n`);
  });

program
  .command("poll")
  .description("poll vendors: one round with --once, else the polling loop until SIGINT/SIGTERM")
  .option("--vendor <slug>", "only this vendor")
  .option("--once", "one round, then exit")
  .option("--quiet", "no line per poll")
  .option(...dbOption)
  .action((opts) => runPoll(opts));

const repeat = (value: string, previous: string[] = []) => [...previous, value];

const watchlistsCommand = program.command("watchlists").description("named sets of vendors (or some of their components) a team depends on: each has a page, feeds and a calendar at /watch/<name>");
watchlistsCommand
  .command("add")
  .description("create a watchlist, or replace the members of the one of that name")
  .argument("<name>", "lowercase letters, digits and dashes")
  .option("--vendor <slug>", "a vendor, whole (repeatable)", repeat)
  .option("--component <vendor:name>", "a vendor narrowed to one component, e.g. github:Actions (repeatable)", repeat)
  .option("--json", "print the watchlist as JSON")
  .option(...dbOption)
  .action((name: string, opts) => runWatchlistsAdd(name, opts));
watchlistsCommand.command("list").description("every watchlist and its members").option("--json", "as JSON").option(...dbOption).action((opts) => runWatchlistsList(opts));
watchlistsCommand.command("remove").description("remove a watchlist (refused while a subscription filters on it)").argument("<name>").option(...dbOption).action((name: string, opts) => runWatchlistsRemove(name, opts));

const subscriptionsCommand = program.command("subscriptions").description("where Redline pushes changes: webhooks, Slack, Discord, Teams, e-mail");
subscriptionsCommand
  .command("add")
  .description("push matching changes to a target; no filter: every change. Filters are ANDed across kinds of filter and ORed within one")
  .requiredOption("--target <url or mailto:address>", "a webhook URL, a Slack/Discord/Teams webhook URL, or mailto:address")
  .option("--format <format>", "webhook, slack, discord, teams or email (default: inferred from the target)")
  .option("--vendor <slug>", "only this vendor's changes (repeatable)", repeat)
  .option("--watchlist <name>", "only the changes of this watchlist's vendors and components")
  .option("--kind <kind>", "only changes of this kind, e.g. update-edited, or quiet-degradation (repeatable)", repeat)
  .option("--component <name>", "only incidents affecting this component, or quiet degradations of it (repeatable)", repeat)
  .option("--group <name>", "with --kind quiet-degradation alone: only quiet degradations of a component in this group (repeatable)", repeat)
  .option("--min-impact <impact>", "only incidents at least this severe (minor, major or critical), before or after the change")
  .option("--digest <period>", "one message per hourly or daily period instead of one per change")
  .option("--json", "print one JSON object {\"id\", \"secret\"}")
  .option(...dbOption)
  .action((opts) => runSubscriptionsAdd(opts));
subscriptionsCommand.command("list").description("every subscription: target, filter, state, pending messages").option("--json", "as JSON").option(...dbOption).action((opts) => runSubscriptionsList(opts));
subscriptionsCommand.command("remove").description("remove a subscription with its pending messages and log").argument("<id>").option(...dbOption).action((id: string, opts) => runSubscriptionsRemove(id, opts));
subscriptionsCommand.command("test").description("send a sample message now and say how the target answered").argument("<id>").option("--json", "the attempt as JSON").option(...dbOption).action((id: string, opts) => runSubscriptionTest(id, opts));
subscriptionsCommand
  .command("deliveries")
  .description("the delivery log, newest first: time, outcome, status, duration, error")
  .argument("<id>")
  .option("--limit <n>", "attempts to show (default 50)")
  .option("--json", "as JSON")
  .option(...dbOption)
  .action((id: string, opts) => runSubscriptionDeliveries(id, opts));

program
  .command("notify")
  .description("deliver subscriptions' messages: what is due with --once, else keep delivering until SIGINT/SIGTERM (`npm start` runs it)")
  .option("--once", "deliver what is due now, then exit")
  .option(...dbOption)
  .action((opts) => runNotify(opts));

const HELP_WORDS = new Set(["--help", "-h", "help"]);

async function main(argv: string[]): Promise<number> {
  try {
    const words = argv.slice(2);
    // Naming every platform loads every parser, which would be most of any help's start-up.
    const listing = words.some((word) => HELP_WORDS.has(word)) ? [...importPlatformOptions].filter(([command]) => words.includes(command)) : [];
    if (listing.length > 0) {
      const { PLATFORM_NAMES } = await import("@/scrapers/platforms");
      for (const [, option] of listing) option.description = `one of: ${PLATFORM_NAMES.join(", ")}`;
    }
    await program.parseAsync(argv);
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.exitCode === 0 ? 0 : 2;
    }
    const [first, ...rest] = (error instanceof Error ? error.message : String(error)).split("\n");
    // A store's error says where on indented lines after its reason; other messages may go on quoting a statement or a payload.
    const where = error instanceof Error && "kind" in error && error.kind === "database" ? rest.filter((line) => line.startsWith("  ")) : [];
    process.stderr.write(`redline: ${[first, ...where].join("\n")}\n`);
    // A value the command's own checks refuse is a usage error, as commander's are.
    return error instanceof Error && "kind" in error && error.kind === "usage" ? 2 : 1;
  }
}

// A reader that stops early (`redline vendors platforms | head`) closes the pipe: the command
// stops writing and ends as it would have, not with an unhandled EPIPE.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code !== "EPIPE") throw error;
  process.exit(process.exitCode ?? 0);
});

void main(process.argv).then((code) => {
  process.exitCode = code;
});
