/** The sender of each subscription format. */
import type { SubscriptionFormat } from "@/lib/notify/subscription-target";
import { chatSender } from "@/notify/chat-sender";
import { type EmailOptions, emailSender } from "@/notify/email-sender";
import type { PostOptions } from "@/notify/http-post";
import type { Sender } from "@/notify/sender";
import { webhookSender } from "@/notify/webhook-sender";

export function createSenders(options: PostOptions, email: EmailOptions): Record<SubscriptionFormat, Sender> {
  return {
    webhook: webhookSender(options),
    slack: chatSender("slack", options),
    discord: chatSender("discord", options),
    teams: chatSender("teams", options),
    email: emailSender(email),
  };
}
