/** Slack, Discord and Teams incoming webhooks: the platform's own message, POSTed as JSON. */
import { renderDiscordMessage, renderSlackMessage, renderTeamsMessage } from "@/lib/notify/chat-messages";
import { postJson, type PostOptions } from "@/notify/http-post";
import type { Sender } from "@/notify/sender";

const RENDERERS = { slack: renderSlackMessage, discord: renderDiscordMessage, teams: renderTeamsMessage } as const;

export function chatSender(platform: keyof typeof RENDERERS, options: PostOptions): Sender {
  return ({ subscription, message, signal }) => postJson(subscription.target, JSON.stringify(RENDERERS[platform](message)), {}, options, signal);
}
