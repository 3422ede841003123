/**
 * One delivery round: plan waiting notifications into messages, then send each due message
 * through its format's sender and record the attempt. Sending runs a bounded number at a time,
 * so one slow target holds up only its own slot. At least once: a message is marked sent only
 * after its target accepted it.
 */
import type { RedlineDb } from "@/db/client";
import { type CarriedChange, claimDueMessages, type ClaimedMessage, dropMessage, planWaitingMessages, readMessageChanges, readSampleVersion, recordAttempt } from "@/db/notifications/delivery";
import { fanOutVersions } from "@/db/notifications/outbox";
import { getSubscription, type Subscription } from "@/db/notifications/subscriptions";
import type { ApiLinks } from "@/lib/api/links";
import { presentQuietDegradation, presentVersion } from "@/lib/api/present";
import type { NotifiedChange, OutboundMessage } from "@/lib/notify/outbound-message";
import { type AttemptDecision, decideAfterAttempt } from "@/lib/notify/retry-policy";
import type { SendResult } from "@/lib/notify/send-result";
import type { SubscriptionFormat } from "@/lib/notify/subscription-target";
import type { Sender } from "@/notify/sender";

export interface NotifyDeps {
  db: RedlineDb;
  senders: Record<SubscriptionFormat, Sender>;
  links: ApiLinks;
  now: () => Date;
  retryBaseMs: number;
  concurrency: number;
  random?: () => number;
}

export interface RoundResult {
  formed: number;
  attempted: number;
  delivered: number;
  retrying: number;
  failed: number;
}

const CLAIM_LIMIT = 200;

/** A carried change as messages present it: as the API gives a version, or lists a quiet degradation. */
export function presentCarried(links: ApiLinks, c: CarriedChange): NotifiedChange {
  if ("quietDegradation" in c) return { vendorName: c.vendorName, quietDegradation: presentQuietDegradation(links, c.quietDegradation) };
  return { vendorName: c.vendorName, version: presentVersion(links, c.vendorSlug, c.providerId, c.title, c.version) };
}

async function outboundMessage(deps: NotifyDeps, subscription: Subscription, claimed: ClaimedMessage): Promise<OutboundMessage> {
  const carried = claimed.kind === "test" ? (await readSampleVersion(deps.db, subscription.filter.vendors)) : (await readMessageChanges(deps.db, claimed.id));
  const changes = carried.map((c) => presentCarried(deps.links, c));
  return { webhookId: claimed.webhookId, kind: claimed.kind, createdAt: claimed.createdAt, period: claimed.period, changes };
}

function testDecision(result: SendResult): AttemptDecision {
  const message = result.outcome === "delivered" ? { status: "sent" as const } : { status: "failed" as const, reason: result.error ?? "not delivered" };
  return { message, subscription: { kind: "unchanged" } };
}

async function deliverOne(deps: NotifyDeps, claimed: ClaimedMessage): Promise<SendResult["outcome"] | null> {
  const subscription = await getSubscription(deps.db, claimed.subscriptionId);
  if (!subscription || subscription.status !== "active") return null;
  const message = await outboundMessage(deps, subscription, claimed);
  if (message.changes.length === 0 && message.kind !== "test") {
    await dropMessage(deps.db, claimed.id, "the changes it carried are no longer in the archive (rebuilt or removed)");
    return null;
  }
  const startedAt = deps.now();
  const started = performance.now();
  let result: SendResult;
  try {
    result = await deps.senders[subscription.format]({ subscription, message, signal: AbortSignal.timeout(120_000) });
  } catch (error) {
    result = { outcome: "retry", statusCode: null, retryAfterMs: null, error: `sender failed: ${(error as Error).message}` };
  }
  const durationMs = performance.now() - started;
  const decision = decideAfterAttempt({
    now: deps.now().toISOString(),
    result,
    attempts: claimed.attempts + 1,
    messageCreatedAt: claimed.createdAt,
    failingSince: subscription.failingSince,
    baseDelayMs: deps.retryBaseMs,
    random: (deps.random ?? Math.random)(),
  });
  // A test reports how the target answered, once; it neither retries nor changes the subscription's standing.
  const applied = claimed.kind === "test" ? testDecision(result) : decision;
  await recordAttempt(deps.db, claimed, { at: startedAt.toISOString(), durationMs, result }, applied);
  return result.outcome;
}

export async function runDeliveryRound(deps: NotifyDeps): Promise<RoundResult> {
  const now = deps.now().toISOString();
  await fanOutVersions(deps.db);
  const formed = await planWaitingMessages(deps.db, now);
  const due = await claimDueMessages(deps.db, now, CLAIM_LIMIT);
  const result: RoundResult = { formed, attempted: 0, delivered: 0, retrying: 0, failed: 0 };
  let next = 0;
  const worker = async () => {
    while (next < due.length) {
      const claimed = due[next++];
      if (!claimed) break;
      const outcome = await deliverOne(deps, claimed);
      if (outcome === null) continue;
      result.attempted += 1;
      if (outcome === "delivered") result.delivered += 1;
      else if (outcome === "retry") result.retrying += 1;
      else result.failed += 1;
    }
  };
  await Promise.all(Array.from({ length: Math.min(deps.concurrency, due.length) }, worker));
  return result;
}
