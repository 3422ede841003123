import { listPollableVendors } from "@/db/operations/poll-state";
import { PollFailureWatch } from "@/lib/poll-reachability";
import { getVendorBySlug } from "@/db/settings/vendors";
import { readEnv } from "@/lib/env";
import type { VendorPollResult } from "@/scrapers/poller/poll-vendor";
import { createPollDeps, createScheduler } from "@/scrapers/poller/create-poller";
import { CliError, withDatabase } from "@/scrapers/cli/cli-context";
import { DerivationWorker, runPendingJobs } from "@/scrapers/rederive/job-runner";
import { applyRawRetention, describeRetention, RawRetentionTimer } from "@/scrapers/poller/raw-retention-timer";
import { describePollingPlan } from "@/scrapers/poller/schedule-policy";
import { SearchUpkeepTimer, tidySearchIndex } from "@/scrapers/poller/search-upkeep";
import { createWebSubPinger } from "@/scrapers/poller/websub-pings";

function logPoll(slug: string, result: VendorPollResult): void {
  const when = new Date().toISOString().slice(0, 19).replace("T", " ");
  const detail = result.ok
    ? `ok (${result.endpoints.map((e) => e.outcome).join(", ") || "nothing to fetch"})${result.versionsAdded ? `, ${result.versionsAdded} new versions` : ""}` +
      result.endpoints.flatMap((e) => (e.error === null ? [] : [`; ${e.outcome}: ${e.error}`])).join("")
    : `FAILED: ${result.error ?? "unknown error"}`;
  process.stdout.write(`${when} ${slug}: ${detail}\n`);
}

/**
 * One round (`--once`) or the polling loop until SIGINT/SIGTERM, which let in-flight polls finish.
 * A round in which every vendor failed is an error: it says more about this machine than the vendors.
 */
export async function runPoll(opts: { vendor?: string; once?: boolean; db?: string; quiet?: boolean }): Promise<void> {
  const env = readEnv();
  await withDatabase("poll", opts, async (db) => {
    if (opts.vendor !== undefined && !(await getVendorBySlug(db, opts.vendor))) throw new CliError(`unknown vendor ${JSON.stringify(opts.vendor)}`);
    const pinger = createWebSubPinger(() => db, env, (line) => process.stderr.write(`${line}\n`));
    const deps = { ...createPollDeps(db, env), ...(pinger ? { onVersionsRecorded: (captureId: number) => pinger.published(captureId) } : {}) };
    const pollable = await listPollableVendors(db, opts.vendor);
    // The loop says once that every poll fails (`--once` ends with its own hint).
    const watch = opts.once ? null : new PollFailureWatch(pollable.length);
    const scheduler = createScheduler(deps, env, {
      onPolled: (v, r) => {
        if (!opts.quiet) logPoll(v.slug, r);
        const line = watch?.record(v, r);
        if (line) process.stderr.write(`${line}\n`);
      },
      onlySlug: opts.vendor,
    });
    if (opts.once) {
      const round = await scheduler.runOnce(opts.vendor);
      await pinger?.drain();
      // Captures that arrived after later ones are put in order before the command ends.
      const vendorId = opts.vendor === undefined ? undefined : (await getVendorBySlug(db, opts.vendor))?.id;
      await runPendingJobs(db, { vendorId, log: (line) => process.stderr.write(`${line}\n`) });
      const days = env.REDLINE_KEEP_RAW_DAYS;
      if (days !== undefined) process.stderr.write(`${describeRetention(days, await applyRawRetention(db, days))}\n`);
      // Routine upkeep, not news: a good round prints nothing on stderr.
      if (db.connection.dialect.process.tidiesSearchIndex) await tidySearchIndex(db);
      process.stdout.write(`polled ${round.vendors} vendors: ${round.ok} ok, ${round.failed} failed, ${round.versionsAdded} new versions\n`);
      if (round.vendors > 0 && round.ok === 0) {
        throw new CliError(`every vendor failed: is this machine offline, or is DNS failing? first error: ${round.firstError ?? "none recorded"}`);
      }
      return;
    }
    // Re-derivation (after a parser upgrade, or for a capture that arrived late) runs beside the
    // polls, never inside one.
    const worker = new DerivationWorker(db, { log: (line) => process.stderr.write(`${line}\n`) });
    worker.start();
    const days = env.REDLINE_KEEP_RAW_DAYS;
    const retention = days === undefined ? null : new RawRetentionTimer(db, days, (line) => process.stderr.write(`${line}\n`));
    retention?.start();
    const searchUpkeep = db.connection.dialect.process.tidiesSearchIndex ? new SearchUpkeepTimer(db, (line) => process.stderr.write(`${line}\n`)) : null;
    searchUpkeep?.start();
    const stop = (signal: string) => {
      process.stdout.write(`poller: ${signal}: finishing the polls in flight\n`);
      scheduler.stop();
      void worker.stop();
    };
    process.once("SIGINT", () => stop("SIGINT"));
    process.once("SIGTERM", () => stop("SIGTERM"));
    const plan = describePollingPlan(env.REDLINE_POLL_INTERVAL_SECONDS, pollable.map((v) => v.intervalSeconds));
    process.stdout.write(`poller: polling ${plan}, ${env.REDLINE_POLL_CONCURRENCY} at a time\n`);
    await scheduler.run();
    await pinger?.drain();
    await retention?.stop();
    await searchUpkeep?.stop();
    await worker.stop();
    process.stdout.write("poller: stopped\n");
  });
}
