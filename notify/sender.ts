/**
 * A sender delivers one message to one subscription's target and says how it went; the
 * delivery loop (notify/deliver.ts) decides from that whether to retry, give up or disable.
 */
import type { Subscription } from "@/db/subscriptions";
import type { OutboundMessage } from "@/lib/notify/outbound-message";

export interface SendResult {
  /** delivered: done; retry: try again later; gone: the target says it will never accept (410); failed: this message cannot be sent. */
  outcome: "delivered" | "retry" | "gone" | "failed";
  /** HTTP status or SMTP reply code; null when none came. */
  statusCode: number | null;
  /** What the target asked for (Retry-After), in milliseconds. */
  retryAfterMs: number | null;
  error: string | null;
}

export interface SendContext {
  subscription: Subscription;
  message: OutboundMessage;
  signal: AbortSignal;
}

export type Sender = (context: SendContext) => Promise<SendResult>;
