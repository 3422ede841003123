/**
 * A subscription's target and format: the format is inferred where the target makes it clear
 * (mailto:, a Slack or Discord webhook URL) and must agree with the target when given.
 */
export const SUBSCRIPTION_FORMATS = ["webhook", "slack", "discord", "teams", "email"] as const;
export type SubscriptionFormat = (typeof SUBSCRIPTION_FORMATS)[number];

export class SubscriptionTargetError extends Error {
  readonly kind = "subscription-target";
}

const SLACK_HOSTS = new Set(["hooks.slack.com"]);
const DISCORD_HOSTS = new Set(["discord.com", "discordapp.com", "canary.discord.com", "ptb.discord.com"]);
/** One address: no list, no display name, nothing a mail header could be made to carry. */
const MAIL_ADDRESS = /^[^\s@<>(),;:"\\\r\n]+@[^\s@<>(),;:"\\\r\n]+\.[^\s@<>(),;:"\\\r\n]+$/;

function inferred(url: URL): SubscriptionFormat {
  if (SLACK_HOSTS.has(url.hostname) && url.pathname.startsWith("/services/")) return "slack";
  if (DISCORD_HOSTS.has(url.hostname) && url.pathname.startsWith("/api/webhooks/")) return "discord";
  return "webhook";
}

/** The target, normalized, and its format; throws SubscriptionTargetError saying what to fix. */
export function resolveTarget(target: string, format: SubscriptionFormat | null): { target: string; format: SubscriptionFormat } {
  const trimmed = target.trim();
  if (/^mailto:/i.test(trimmed)) {
    let address: string;
    try {
      address = decodeURIComponent(trimmed.slice("mailto:".length));
    } catch {
      throw new SubscriptionTargetError(`subscriptions: ${JSON.stringify(target)} holds a malformed percent escape; write the address as it is (mailto:name@example.com)`);
    }
    if (!MAIL_ADDRESS.test(address)) throw new SubscriptionTargetError(`subscriptions: ${JSON.stringify(target)} is not one e-mail address (mailto:name@example.com)`);
    if (format !== null && format !== "email") throw new SubscriptionTargetError(`subscriptions: a mailto: target takes the email format, not ${format}`);
    return { target: `mailto:${address}`, format: "email" };
  }
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw new SubscriptionTargetError(`subscriptions: ${JSON.stringify(target)} is neither an http(s) URL nor mailto:address`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new SubscriptionTargetError(`subscriptions: ${url.protocol} targets are not supported: use https:// or mailto:`);
  if (url.username || url.password) throw new SubscriptionTargetError("subscriptions: put no credentials in the target URL; webhooks are signed with the subscription's secret");
  if (format === "email") throw new SubscriptionTargetError("subscriptions: the email format needs a mailto: target");
  return { target: url.toString(), format: format ?? inferred(url) };
}
