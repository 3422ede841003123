import { type Subscription, addSubscription, countPendingNotifications, listSubscriptions, removeSubscription, SubscriptionError } from "@/db/notifications/subscriptions";
import { readEnv } from "@/lib/env";
import { describeFilter } from "@/lib/notify/subscription-filter";
import { maskTarget, SubscriptionInputError } from "@/lib/notify/subscription-input";
import { CliError, withDatabase } from "@/scrapers/cli/cli-context";
import { validateSubscription } from "@/scrapers/live/validate-subscription";

export interface SubscriptionsAddOptions {
  target: string;
  format?: string;
  vendor?: string[];
  watchlist?: string;
  kind?: string[];
  component?: string[];
  group?: string[];
  minImpact?: string;
  digest?: string;
  json?: boolean;
  db?: string;
}

/** The flag a field of the request comes from: kinds → --kind, minImpact → --min-impact. */
function flagOf(field: string): string {
  return `--${field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`).replace(/s$/, "")}`;
}

export async function runSubscriptionsAdd(opts: SubscriptionsAddOptions): Promise<void> {
  let checked;
  try {
    checked = validateSubscription(
      {
        target: opts.target, format: opts.format, vendors: opts.vendor ?? [], watchlist: opts.watchlist ?? null, kinds: opts.kind ?? [],
        components: opts.component ?? [], groups: opts.group ?? [], minImpact: opts.minImpact ?? null, digest: opts.digest ?? null,
      },
      readEnv().REDLINE_ALLOW_PRIVATE_URLS,
    );
  } catch (error) {
    if (error instanceof SubscriptionInputError) throw new CliError(error.message.replace(`subscriptions: ${error.field}:`, `subscriptions: ${flagOf(error.field)}:`));
    throw error;
  }
  await withDatabase("subscriptions add", opts, async (db) => {
    let saved: Subscription;
    try {
      saved = await addSubscription(db, checked);
    } catch (error) {
      if (error instanceof SubscriptionError) throw new CliError(error.message);
      throw error;
    }
    if (opts.json) {
      process.stdout.write(`${JSON.stringify({ id: saved.id, secret: saved.secret })}\n`);
      return;
    }
    process.stdout.write(`subscription ${saved.id}: ${saved.format} to ${maskTarget(saved.target, saved.format)}, ${describeFilter(saved.filter, saved.watchlist)}${saved.digest ? `, ${saved.digest} digest` : ""}\n`);
    if (saved.format === "webhook") {
      process.stdout.write(`signing secret: ${saved.secret}\n(shown once: receivers verify the webhook-signature header with it, as the Standard Webhooks specification says)\n`);
    }
  });
}

export async function runSubscriptionsList(opts: { json?: boolean; db?: string }): Promise<void> {
  await withDatabase("subscriptions list", opts, async (db) => {
    const pendingOf = await countPendingNotifications(db);
    const rows = (await listSubscriptions(db)).map((s) => ({
      id: s.id, format: s.format, target: maskTarget(s.target, s.format), filter: describeFilter(s.filter, s.watchlist), digest: s.digest,
      status: s.status, disabledAt: s.disabledAt, disabledReason: s.disabledReason, failingSince: s.failingSince, lastDeliveredAt: s.lastDeliveredAt,
      pending: pendingOf.get(s.id) ?? 0,
    }));
    if (opts.json) {
      process.stdout.write(`${JSON.stringify(rows)}\n`);
      return;
    }
    if (rows.length === 0) process.stdout.write("no subscriptions (add one with `redline subscriptions add --target …`)\n");
    for (const r of rows) {
      const state = r.status === "disabled" ? `DISABLED since ${r.disabledAt ?? "?"}: ${r.disabledReason ?? ""}` : r.failingSince ? `failing since ${r.failingSince}` : "active";
      process.stdout.write(`${r.id}  ${r.format.padEnd(7)} ${r.target}  ${r.filter}${r.digest ? `, ${r.digest} digest` : ""}  ${state}; ${r.pending} pending; last delivered ${r.lastDeliveredAt ?? "never"}\n`);
    }
  });
}

export async function runSubscriptionsRemove(id: string, opts: { db?: string }): Promise<void> {
  await withDatabase("subscriptions remove", opts, async (db) => {
    if (!(await removeSubscription(db, id))) throw new CliError(`no subscription ${JSON.stringify(id)} (see \`redline subscriptions list\`)`);
    process.stdout.write(`removed subscription ${id} with its pending messages and delivery log\n`);
  });
}
