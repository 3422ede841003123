/**
 * A sender delivers one message to one subscription's target and says how it went; the
 * delivery loop (notify/deliver.ts) decides from that whether to retry, give up or disable.
 */
import type { Subscription } from "@/db/notifications/subscriptions";
import type { OutboundMessage } from "@/lib/notify/outbound-message";
import type { SendResult } from "@/lib/notify/send-result";

export type { SendResult };

export interface SendContext {
  subscription: Subscription;
  message: OutboundMessage;
  signal: AbortSignal;
}

export type Sender = (context: SendContext) => Promise<SendResult>;

/** The HTTP client senders reach a target through: one POST of a JSON body. Whoever starts delivery hands it in, with the address rules applied. */
export type PostJson = (target: string, body: string, headers: Record<string, string>, signal: AbortSignal) => Promise<SendResult>;
