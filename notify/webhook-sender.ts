/**
 * Webhooks as the Standard Webhooks specification has them: a JSON body
 * `{type, timestamp, data}` signed with the subscription's secret in the webhook-id,
 * webhook-timestamp and webhook-signature headers. Receivers deduplicate on webhook-id, which a
 * message keeps across retries.
 */
import { Webhook } from "standardwebhooks";
import { isVersionChange, type NotifiedQuietDegradation, type NotifiedVersion, type OutboundMessage } from "@/lib/notify/outbound-message";
import type { PostJson, Sender } from "@/notify/sender";

/**
 * The body a message is sent as: one change as the API gives it (a version, `incident.changed`, or
 * a quiet degradation that started, `quiet-degradation.started`), or several in a list, versions
 * in `changes` and quiet degradations in `quietDegradations`.
 */
export function webhookBody(message: OutboundMessage): string {
  const [only] = message.changes;
  const versions: NotifiedVersion[] = [];
  const quiet: NotifiedQuietDegradation[] = [];
  for (const c of message.changes) {
    if (isVersionChange(c)) versions.push(c.version);
    else quiet.push(c.quietDegradation);
  }
  if (message.kind === "test") return JSON.stringify({ type: "redline.test", timestamp: message.createdAt, data: { sample: versions[0] ?? null } });
  if (message.kind === "single" && only && message.changes.length === 1) {
    return isVersionChange(only)
      ? JSON.stringify({ type: "incident.changed", timestamp: only.version.observedAt, data: only.version })
      : JSON.stringify({ type: "quiet-degradation.started", timestamp: only.quietDegradation.from, data: only.quietDegradation });
  }
  return JSON.stringify({
    type: "incident.changed.batch",
    timestamp: message.createdAt,
    data: { ...(message.period ? { period: message.period } : {}), changes: versions, ...(quiet.length > 0 ? { quietDegradations: quiet } : {}) },
  });
}

export function signedHeaders(secret: string, webhookId: string, at: Date, body: string): Record<string, string> {
  return {
    "webhook-id": webhookId,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": new Webhook(secret).sign(webhookId, at, body),
  };
}

export function webhookSender(post: PostJson, now: () => Date = () => new Date()): Sender {
  return ({ subscription, message, signal }) => {
    const body = webhookBody(message);
    return post(subscription.target, body, signedHeaders(subscription.secret, message.webhookId, now(), body), signal);
  };
}
