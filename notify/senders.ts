/** The sender of each subscription format. */
import type { SubscriptionFormat } from "@/lib/notify/subscription-target";
import { chatSender } from "@/notify/chat-sender";
import { type EmailOptions, emailSender } from "@/notify/email-sender";
import type { PostJson, Sender } from "@/notify/sender";
import { webhookSender } from "@/notify/webhook-sender";

/** Every sender over HTTP goes through `post`, the client the caller hands in. */
export function createSenders(post: PostJson, email: EmailOptions): Record<SubscriptionFormat, Sender> {
  return {
    webhook: webhookSender(post),
    slack: chatSender("slack", post),
    discord: chatSender("discord", post),
    teams: chatSender("teams", post),
    email: emailSender(email),
  };
}
