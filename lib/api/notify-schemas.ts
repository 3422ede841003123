/** The operator API's watchlists and subscriptions: bodies and answers (see lib/api/routes.ts). */
import { z } from "zod";
import { utcTimestampSchema } from "@/lib/incident";
import { MIN_IMPACTS } from "@/lib/notify/subscription-filter";
import { subscriptionRequestSchema } from "@/lib/notify/subscription-input";
import { SUBSCRIPTION_FORMATS } from "@/lib/notify/subscription-target";

export const watchlistBodySchema = z.strictObject({
  name: z.string().min(1).max(100).describe("Lowercase letters, digits and dashes: it is the page's URL, /watch/<name>. Saving an existing name replaces its members."),
  vendors: z.array(z.string().min(1)).max(500).default([]).describe("Vendors, whole, by slug."),
  components: z.array(z.string().min(3).max(300)).max(500).default([]).describe("`vendor:component`: the vendor narrowed to this component."),
});

export const watchlistSchema = z.object({
  name: z.string(),
  createdAt: utcTimestampSchema,
  members: z.array(z.object({ vendor: z.string(), vendorName: z.string(), component: z.string().nullable() })),
  page: z.string().describe("The watchlist's page."),
});
export const watchlistRemovedSchema = z.object({ name: z.string(), removed: z.literal(true) });

export const subscriptionBodySchema = subscriptionRequestSchema;

export const subscriptionSchema = z.object({
  id: z.string(),
  format: z.enum(SUBSCRIPTION_FORMATS),
  target: z.string().describe("The target; the secret path of a Slack, Discord or Teams webhook URL is masked."),
  filter: z.object({ vendors: z.array(z.string()), kinds: z.array(z.string()), components: z.array(z.string()), groups: z.array(z.string()), minImpact: z.enum(MIN_IMPACTS).nullable() }),
  watchlist: z.string().nullable(),
  description: z.string().describe("The filter in words, e.g. `vendor github, impact major or worse`."),
  digest: z.enum(["hourly", "daily"]).nullable(),
  status: z.enum(["active", "disabled"]),
  disabledAt: utcTimestampSchema.nullable(),
  disabledReason: z.string().nullable(),
  failingSince: utcTimestampSchema.nullable().describe("Set while deliveries fail; a day of failures disables the subscription."),
  lastDeliveredAt: utcTimestampSchema.nullable(),
  createdAt: utcTimestampSchema,
  pending: z.number().int().describe("Changes not yet delivered."),
});
export const subscriptionCreatedSchema = subscriptionSchema.extend({
  secret: z.string().describe("The Standard Webhooks signing secret (`whsec_…`): returned by this call only."),
});
export const subscriptionRemovedSchema = z.object({ id: z.string(), removed: z.literal(true) });

export const deliveryAttemptSchema = z.object({
  attemptedAt: utcTimestampSchema,
  webhookId: z.string().describe("The message's webhook-id, the same on every attempt."),
  kind: z.enum(["single", "batch", "digest", "test"]),
  changes: z.number().int(),
  statusCode: z.number().int().nullable().describe("The HTTP status or SMTP reply code; null when none came."),
  durationMs: z.number().int(),
  outcome: z.enum(["delivered", "retry", "gone", "failed"]),
  error: z.string().nullable(),
});

export const testRequestedSchema = z.object({
  id: z.string(),
  webhookId: z.string(),
  detail: z.string(),
});

export const listOf = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item) });
