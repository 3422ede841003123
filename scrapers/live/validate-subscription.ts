import { type CheckedSubscription, checkSubscriptionRequest, SubscriptionInputError, subscriptionRequestSchema } from "@/lib/notify/subscription-input";
import { AddressPolicyError, checkUrlTarget } from "@/scrapers/http/address-policy";

/**
 * A subscription as the CLI's flags or the API's body give it, checked as a whole before anything
 * is written: the shape, the target and its format, the kinds, and the target's address under the
 * same rules as vendor URLs. Throws SubscriptionInputError naming the field (the API's spelling).
 */
export function validateSubscription(request: unknown, allowPrivate: boolean): CheckedSubscription {
  const parsed = subscriptionRequestSchema.safeParse(request);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.code === "unrecognized_keys" ? (issue.keys[0] ?? "?") : String(issue?.path[0] ?? "?");
    throw new SubscriptionInputError(`subscriptions: ${field}: ${issue?.message ?? "invalid"}`, field);
  }
  const checked = checkSubscriptionRequest(parsed.data);
  if (checked.format === "email") return checked;
  try {
    checkUrlTarget(new URL(checked.target), allowPrivate);
  } catch (error) {
    if (error instanceof AddressPolicyError) throw new SubscriptionInputError(`subscriptions: ${error.message}`, "target");
    throw error;
  }
  return checked;
}
