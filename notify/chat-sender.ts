/** Slack, Discord and Teams incoming webhooks: the platform's own message, POSTed as JSON. */
import { renderDiscordMessage, renderSlackMessage, renderTeamsMessage } from "@/lib/notify/chat-messages";
import type { PostJson, Sender } from "@/notify/sender";

const RENDERERS = { slack: renderSlackMessage, discord: renderDiscordMessage, teams: renderTeamsMessage } as const;

export function chatSender(platform: keyof typeof RENDERERS, post: PostJson): Sender {
  return ({ subscription, message, signal }) => post(subscription.target, JSON.stringify(RENDERERS[platform](message)), {}, signal);
}
