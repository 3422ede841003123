/**
 * A subscription as asked for (by the CLI's flags or the API's JSON body), checked into what is
 * stored: the target and its format, the filter, the digest. One place, so both say the same.
 */
import { z } from "zod";
import { NEW_SOURCE_REPORT, NOTIFYING_KIND_NAMES } from "@/lib/change-kinds";
import { QUIET_DEGRADATION_KIND } from "@/lib/components/quiet-degradation";
import { MIN_IMPACTS, type SubscriptionFilter } from "@/lib/notify/subscription-filter";
import { resolveTarget, SUBSCRIPTION_FORMATS, type SubscriptionFormat, SubscriptionTargetError } from "@/lib/notify/subscription-target";

export const subscriptionRequestSchema = z.strictObject({
  target: z.string().min(1).max(2_048).describe("An http(s) URL (webhook, Slack, Discord, Teams) or mailto:address."),
  format: z.enum(SUBSCRIPTION_FORMATS).optional().describe("Inferred from the target when clear (Slack or Discord webhook URL, mailto:); else webhook."),
  vendors: z.array(z.string().min(1)).max(500).default([]),
  watchlist: z.string().min(1).nullable().default(null),
  kinds: z.array(z.string().min(1)).max(50).default([]),
  components: z.array(z.string().min(1).max(200)).max(200).default([]),
  groups: z.array(z.string().trim().min(1).max(200)).max(200).default([]).describe("Component groups by name: only quiet degradations with a component in one (needs kinds [\"quiet-degradation\"])."),
  minImpact: z.enum(MIN_IMPACTS).nullable().default(null),
  digest: z.enum(["hourly", "daily"]).nullable().default(null),
});
export type SubscriptionRequest = z.input<typeof subscriptionRequestSchema>;

export interface CheckedSubscription {
  target: string;
  format: SubscriptionFormat;
  filter: SubscriptionFilter;
  watchlist: string | null;
  digest: "hourly" | "daily" | null;
}

export class SubscriptionInputError extends Error {
  readonly kind = "subscription-input";
  constructor(
    message: string,
    readonly field: string,
  ) {
    super(message);
  }
}

export function checkSubscriptionRequest(request: z.output<typeof subscriptionRequestSchema>): CheckedSubscription {
  let resolved;
  try {
    resolved = resolveTarget(request.target, request.format ?? null);
  } catch (error) {
    if (error instanceof SubscriptionTargetError) throw new SubscriptionInputError(error.message, "target");
    throw error;
  }
  if (request.kinds.includes(NEW_SOURCE_REPORT)) {
    throw new SubscriptionInputError(`subscriptions: ${NEW_SOURCE_REPORT} notifies no one: it is a newly added source's account of what was archived before, not news`, "kinds");
  }
  const known: readonly string[] = [...NOTIFYING_KIND_NAMES, QUIET_DEGRADATION_KIND];
  const unknown = request.kinds.filter((k) => !known.includes(k));
  if (unknown.length > 0) throw new SubscriptionInputError(`subscriptions: unknown change kind ${unknown.map((k) => JSON.stringify(k)).join(", ")} (one of: ${known.join(", ")})`, "kinds");
  const kinds = [...new Set(request.kinds)] as SubscriptionFilter["kinds"];
  // A group says nothing of a change to an incident, which would then never match: refused rather than silently narrowing to nothing.
  if (request.groups.length > 0 && (kinds.length !== 1 || kinds[0] !== QUIET_DEGRADATION_KIND)) {
    throw new SubscriptionInputError(`subscriptions: groups: a group narrows quiet degradations only: give kind ${QUIET_DEGRADATION_KIND} and no other kind`, "groups");
  }
  return {
    ...resolved,
    filter: { vendors: [...new Set(request.vendors)], kinds, components: [...new Set(request.components)], groups: [...new Set(request.groups)], minImpact: request.minImpact },
    watchlist: request.watchlist,
    digest: request.digest,
  };
}

/** A target as lists show it: the secret parts of chat webhook URLs (their path) masked. */
export function maskTarget(target: string, format: SubscriptionFormat): string {
  if (format === "webhook" || format === "email") return target;
  try {
    const url = new URL(target);
    return `${url.origin}/…`;
  } catch {
    return "…";
  }
}
