import { enqueueTestMessage, hasWaitingNotifications, listDeliveries, nextDueAt } from "@/db/notifications/delivery";
import { hasVersionsToFanOut } from "@/db/notifications/outbox";
import { getSubscription } from "@/db/notifications/subscriptions";
import { readEnv } from "@/lib/env";
import { CliError, withDatabase } from "@/scrapers/cli/cli-context";
import { type RoundResult, runDeliveryRound } from "@/notify/deliver";
import { createNotifyDeps, notifyOrigin } from "@/scrapers/cli/create-notifier";

/** How often the loop looks for new notifications: a cheap indexed query. */
const WATCH_INTERVAL_MS = 1_000;

function describeRound(r: RoundResult): string {
  return `${r.formed} messages formed, ${r.attempted} sent: ${r.delivered} delivered, ${r.retrying} to retry, ${r.failed} failed`;
}

/**
 * Deliver what is due and exit (`--once`), or keep delivering until SIGINT/SIGTERM: a round runs
 * as soon as the outbox holds new notifications or a retry falls due.
 */
export async function runNotify(opts: { once?: boolean; db?: string }): Promise<void> {
  const env = readEnv();
  await withDatabase("notify", opts, async (db) => {
    const deps = createNotifyDeps(db, env);
    if (!notifyOrigin(env).configured) process.stderr.write(`notify: REDLINE_PUBLIC_URL is not set; links in messages point at ${notifyOrigin(env).origin}\n`);
    if (opts.once) {
      process.stdout.write(`notify: ${describeRound(await runDeliveryRound(deps))}\n`);
      return;
    }
    let stopping = false;
    let wake = () => {};
    const stop = (signal: string) => {
      process.stdout.write(`notify: ${signal}: finishing the deliveries in flight\n`);
      stopping = true;
      wake();
    };
    process.once("SIGINT", () => stop("SIGINT"));
    process.once("SIGTERM", () => stop("SIGTERM"));
    process.stdout.write("notify: delivering\n");
    while (!stopping) {
      const due = await nextDueAt(db);
      if ((await hasVersionsToFanOut(db)) || (await hasWaitingNotifications(db)) || (due !== null && due <= deps.now().toISOString())) {
        const round = await runDeliveryRound(deps);
        if (round.attempted > 0 || round.formed > 0) process.stdout.write(`${new Date().toISOString().slice(0, 19).replace("T", " ")} notify: ${describeRound(round)}\n`);
        continue;
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, WATCH_INTERVAL_MS);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    process.stdout.write("notify: stopped\n");
  });
}

/** Send a sample message now through the subscription's real sender and say how the target answered. */
export async function runSubscriptionTest(id: string, opts: { db?: string; json?: boolean }): Promise<void> {
  const env = readEnv();
  await withDatabase("subscriptions test", opts, async (db) => {
    if (!(await getSubscription(db, id))) throw new CliError(`no subscription ${JSON.stringify(id)} (see \`redline subscriptions list\`)`);
    const message = await enqueueTestMessage(db, id);
    await runDeliveryRound(createNotifyDeps(db, env));
    const [attempt] = await listDeliveries(db, id, 1);
    if (!attempt || attempt.webhookId !== message.webhookId) throw new CliError(`the test message ${message.webhookId} was not sent (is the subscription disabled?)`);
    if (opts.json) process.stdout.write(`${JSON.stringify(attempt)}\n`);
    else process.stdout.write(`${attempt.outcome === "delivered" ? "delivered" : "NOT delivered"}: ${attempt.statusCode ?? "no answer"} in ${attempt.durationMs} ms${attempt.error ? ` (${attempt.error})` : ""}; webhook-id ${attempt.webhookId}\n`);
    if (attempt.outcome !== "delivered") throw new CliError(`the target did not accept the test message: ${attempt.error ?? attempt.outcome}`);
  });
}

/** The subscription's delivery log, newest first. */
export async function runSubscriptionDeliveries(id: string, opts: { db?: string; json?: boolean; limit?: string }): Promise<void> {
  await withDatabase("subscriptions deliveries", opts, async (db) => {
    if (!(await getSubscription(db, id))) throw new CliError(`no subscription ${JSON.stringify(id)} (see \`redline subscriptions list\`)`);
    const limit = Number(opts.limit ?? "50");
    if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) throw new CliError("--limit takes a whole number from 1 to 10000");
    const log = await listDeliveries(db, id, limit);
    if (opts.json) {
      process.stdout.write(`${JSON.stringify(log)}\n`);
      return;
    }
    if (log.length === 0) process.stdout.write("no delivery attempted yet\n");
    for (const a of log) {
      process.stdout.write(`${a.attemptedAt}  ${a.outcome.padEnd(9)} ${String(a.statusCode ?? "-").padEnd(4)} ${String(a.durationMs).padStart(6)} ms  ${a.kind} (${a.changes} changes) ${a.webhookId}${a.error ? `  ${a.error}` : ""}\n`);
    }
  });
}
