import { z } from "zod";
import { changeSchema } from "@/lib/change";
import { CHANGE_KIND_NAMES, type ChangeKindName } from "@/lib/change-kinds";
import { COMPONENT_STATUSES } from "@/lib/components/component-status";
import { statusAtSchema } from "@/lib/components/status-instant";
import { impactSchema, incidentSchema, incidentStateSchema, presenceSchema, utcTimestampSchema } from "@/lib/incident";
import { SEARCH_LIMITS, searchWordsProblem } from "@/lib/search-words";
import { VENDOR_SLUG_PATTERN, vendorSlugSchema } from "@/lib/vendor-slug";

/**
 * The JSON API's inputs and outputs as zod schemas: handlers parse with the input schemas and
 * type their answers with the output ones, and the OpenAPI document is generated from both, so
 * the document cannot drift from what the handlers do.
 */
export const API_DEFAULT_LIMIT = 50;
export const API_MAX_LIMIT = 200;

const one = <T extends z.ZodType>(item: T) => z.union([item, z.array(item).max(20)]).transform((v) => (Array.isArray(v) ? v : [v]));

const slugSchema = z.string().regex(VENDOR_SLUG_PATTERN, "not a vendor slug");
const kindSchema = z.enum(CHANGE_KIND_NAMES as [ChangeKindName, ...ChangeKindName[]], {
  error: (issue) => `unknown change kind ${JSON.stringify(String(issue.input).slice(0, 40))}`,
});
const impactFilterSchema = z.union([impactSchema, z.literal("unknown")], { error: "expected none, minor, major, critical, maintenance or unknown" });
/** A day (2026-05-01, from its start) or an instant (2026-05-01T12:00:00Z), always UTC. */
const instantSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?Z)?$/, "expected a UTC date (YYYY-MM-DD) or time (YYYY-MM-DDTHH:MM:SSZ)")
  .refine((v) => !Number.isNaN(Date.parse(v.length === 10 ? `${v}T00:00:00Z` : v)), "not a real date")
  .transform((v) => new Date(v.length === 10 ? `${v}T00:00:00Z` : v).toISOString());
const limitSchema = z.coerce
  .number({ error: "expected a whole number" })
  .int("expected a whole number")
  .min(1, "at least 1")
  .max(API_MAX_LIMIT, `at most ${API_MAX_LIMIT}`)
  .default(API_DEFAULT_LIMIT)
  .describe(`How many items per page (default ${API_DEFAULT_LIMIT}, at most ${API_MAX_LIMIT}).`);
const cursorSchema = z.string().max(200).regex(/^[A-Za-z0-9_-]+$/, "not a cursor from this API").describe("Where the next page starts: the `next` link's cursor.");

const listFilters = {
  vendor: one(slugSchema).optional().describe("Only these vendors (repeatable)."),
  impact: one(impactFilterSchema).optional().describe("Only incidents whose current impact is one of these (repeatable)."),
  status: one(z.string().max(40).regex(/^[a-z_ -]+$/, "not a status")).optional().describe("Only incidents whose current status is one of these (repeatable)."),
  kind: one(kindSchema).optional().describe("Only changes of these kinds; for incidents, those with at least one such change (repeatable)."),
  component: z.string().max(200).optional().describe("Only incidents affecting this component (its name, any case)."),
  since: instantSchema.optional().describe("From this UTC date or time on (incidents: by start; changes: by observation)."),
  until: instantSchema.optional().describe("Before this UTC date or time."),
  q: z.string().min(1).max(200, "at most 200 characters").optional().describe("Words that must all appear in the title, an update or the postmortem."),
  cursor: cursorSchema.optional(),
  limit: limitSchema,
};

export const vendorListQuerySchema = z.strictObject({
  q: z.string().max(100, "at most 100 characters").optional().describe("Part of the vendor's name or slug."),
  cursor: cursorSchema.optional(),
  limit: limitSchema,
});
export const incidentListQuerySchema = z.strictObject(listFilters);
export const changeListQuerySchema = z.strictObject(listFilters);
export const searchQuerySchema = z.strictObject({
  q: z.string({ error: "required: the words to search for" }).min(1, "required: the words to search for").max(200, "at most 200 characters")
    .superRefine((q, ctx) => {
      const problem = searchWordsProblem(q);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    })
    .describe(`The words, all required; a word ending in * matches words that begin with it. At most ${SEARCH_LIMITS.words} words, ${SEARCH_LIMITS.prefixWords} of them ending in *, each with at least ${SEARCH_LIMITS.prefixLetters} letters before the *.`),
  vendor: one(slugSchema).optional(),
  since: instantSchema.optional(),
  until: instantSchema.optional(),
  cursor: cursorSchema.optional(),
  limit: limitSchema,
});
const quietFilters = {
  group: z.string().trim().min(1, "a group's name").max(200, "at most 200 characters").optional()
    .describe("Only stretches with a component in a group of this name (any case), as the vendor lists its groups now."),
  component: z.string().max(200).optional().describe("Only stretches with a component of this name (any case)."),
  since: instantSchema.optional().describe("Only stretches that began at or after this UTC date or time."),
  until: instantSchema.optional().describe("Only stretches that began before this UTC date or time."),
  cursor: cursorSchema.optional(),
  limit: limitSchema,
};
export const quietDegradationListQuerySchema = z.strictObject({ vendor: one(slugSchema).optional().describe("Only these vendors (repeatable)."), ...quietFilters });
export const vendorQuietDegradationListQuerySchema = z.strictObject(quietFilters);
export const diffQuerySchema = z.strictObject({
  from: z.coerce.number({ error: "expected a version number" }).int("expected a version number").min(1, "versions start at 1"),
  to: z.coerce.number({ error: "expected a version number" }).int("expected a version number").min(1, "versions start at 1"),
});
export const emptyQuerySchema = z.strictObject({});
export const deleteVendorQuerySchema = z.strictObject({
  purge: z.enum(["true", "false"]).optional().describe("Also delete everything archived of the vendor (default false: polling stops, the archive stays)."),
});

export const addVendorBodySchema = z.strictObject({
  slug: vendorSlugSchema,
  name: z.string().trim().min(1, "the name is empty").max(200),
  platform: z.string().min(1).max(60),
  url: z.string().min(1).max(2_000),
  intervalSeconds: z.number().int().min(10).max(86_400).optional(),
});

const linkSchema = z.string().describe("An absolute URL.");
const feedLinksSchema = z.object({ atom: linkSchema, rss: linkSchema, json: linkSchema });

export const vendorSchema = z.object({
  slug: z.string(),
  name: z.string(),
  platform: z.string(),
  url: z.string().nullable().describe("The endpoint Redline polls; null for a vendor known only from imports."),
  statusPage: z.string().nullable(),
  polled: z.boolean(),
  openIncidents: z.number().int().describe("Incidents open now; 0 while the state is unknown."),
  now: z
    .object({
      state: z.enum(["clear", "incident", "unknown"]),
      asOf: utcTimestampSchema.nullable().describe("The last good capture the state is as of; null: never reached."),
      unknownSince: utcTimestampSchema.nullable(),
      reason: z.enum(["never-reached", "failing", "not-polled", "stale"]).nullable(),
    })
    .describe("The vendor's state as of its last good capture; unknown when that is more than a few poll intervals old."),
  incidentsLast90Days: z.number().int(),
  lastIncident: z.object({ id: z.string(), title: z.string(), startedAt: utcTimestampSchema.nullable(), impact: z.string().nullable() }).nullable(),
  poll: z
    .object({
      lastPollAt: z.string().nullable(),
      lastOutcome: z.string().nullable(),
      lastError: z.string().nullable(),
      consecutiveFailures: z.number().int(),
      nextPollAt: z.string().nullable(),
    })
    .nullable(),
  links: z.object({ self: linkSchema, html: linkSchema, incidents: linkSchema, changes: linkSchema, quietDegradations: linkSchema, feeds: feedLinksSchema }),
});

const incidentRefSchema = z.object({ vendor: z.string(), id: z.string(), key: z.string().describe("The id as it appears in URLs."), title: z.string() });

export const incidentSummarySchema = z.object({
  vendor: z.string(),
  id: z.string(),
  key: z.string(),
  kind: z.enum(["incident", "maintenance"]),
  title: z.string(),
  status: z.string().nullable(),
  impact: z.string().nullable(),
  startedAt: utcTimestampSchema.nullable(),
  resolvedAt: utcTimestampSchema.nullable(),
  presence: presenceSchema,
  firstSeenAt: utcTimestampSchema,
  lastChangedAt: utcTimestampSchema,
  versionCount: z.number().int(),
  links: z.object({ self: linkSchema, html: linkSchema }),
});

const versionSummarySchema = z.object({
  seq: z.number().int(),
  observedAt: utcTimestampSchema,
  kinds: z.array(kindSchema),
  summary: z.string(),
  links: z.object({ self: linkSchema, html: linkSchema }),
});

export const incidentDetailSchema = incidentSummarySchema.extend({
  current: incidentSchema,
  versions: z.array(versionSummarySchema),
  links: z.object({ self: linkSchema, html: linkSchema, markdown: linkSchema, json: linkSchema, feeds: feedLinksSchema }),
});

export const versionDetailSchema = z.object({
  incident: incidentRefSchema,
  seq: z.number().int(),
  observedAt: utcTimestampSchema,
  hash: z.string(),
  kinds: z.array(kindSchema),
  summary: z.string(),
  headline: z.string().describe("What changed, said first: the summary without the incident's boilerplate."),
  changes: z.array(changeSchema),
  snapshot: incidentStateSchema,
  links: z.object({ self: linkSchema, html: linkSchema, incident: linkSchema, markdown: linkSchema, json: linkSchema }),
});

export const diffSchema = z.object({
  incident: incidentRefSchema,
  from: z.number().int(),
  to: z.number().int(),
  changes: z.array(changeSchema),
  links: z.object({ self: linkSchema, html: linkSchema }),
});

export const changeItemSchema = z.object({
  incident: incidentRefSchema.extend({ impact: z.string().nullable(), status: z.string().nullable() }),
  vendorName: z.string(),
  seq: z.number().int(),
  observedAt: utcTimestampSchema,
  kinds: z.array(kindSchema),
  summary: z.string(),
  headline: z.string().describe("The summary's sentences about this version's changes alone."),
  links: z.object({ self: linkSchema, html: linkSchema }),
});

export const searchHitSchema = z.object({
  incident: incidentRefSchema.extend({ impact: z.string().nullable(), startedAt: utcTimestampSchema.nullable() }),
  vendorName: z.string(),
  snippet: z.string().describe("Matching text around the words; the matched words are between « and »."),
  earlierVersion: z.number().int().nullable().describe("The last version that said the words, when they were since edited away; null when the current version matches."),
  links: z.object({ self: linkSchema, html: linkSchema }),
});

export const statusQuerySchema = z.strictObject({ at: statusAtSchema.optional() });

/** The page as it was at a moment: what `redline status --format json` prints too. */
export const statusViewSchema = z.object({
  vendor: z.string().describe("The vendor's slug."),
  at: utcTimestampSchema.describe("The moment asked for; without `at`, when the answer was made."),
  observedAt: utcTimestampSchema.nullable().describe("The good capture the view rests on: the last at or before the moment. Null: never captured."),
  components: z.array(z.object({
    id: z.string().describe("The vendor's id of the component."),
    name: z.string(),
    group: z.string().nullable().describe("Its group's name; null at the top level."),
    status: z.enum(COMPONENT_STATUSES).describe("Worst first in the list. `unknown`: a word Redline does not know, or, now, no good capture for more than three poll intervals (then `since` is that capture)."),
    vendorStatus: z.string().describe("The vendor's own word for the state."),
    since: utcTimestampSchema.describe("When Redline first observed the state."),
    inferred: z.boolean().describe("Worked out from the vendor's open incidents naming it, not stated by the vendor."),
  })),
  incidents: z.array(z.object({
    id: z.string(),
    title: z.string(),
    status: z.string().nullable(),
    impact: z.string().nullable(),
    seq: z.number().int().describe("The incident's version as of the moment."),
  })).describe("Incidents and maintenances open then, each as its version of then; none while the state now is unknown."),
});

export const quietDegradationSchema = z.object({
  vendor: z.string(),
  vendorName: z.string(),
  from: utcTimestampSchema.describe("The first capture of the stretch: when Redline first observed a component degraded or out with no incident open."),
  until: utcTimestampSchema.nullable().describe("The first capture after it (an incident open, or nothing degraded any more); null while it goes on."),
  durationSeconds: z.number().int().nullable().describe("From `from` to `until`; null while it goes on."),
  components: z
    .array(z.object({ id: z.string().describe("The vendor's id for it."), name: z.string(), group: z.string().nullable(), links: z.object({ html: linkSchema }) }))
    .describe("Every component degraded or out during the stretch, named as last listed."),
  groups: z.array(z.string()).describe("The groups those components sit in."),
  links: z.object({ html: linkSchema.describe("The vendor's status page as it was when the stretch began."), vendor: linkSchema }),
});

/** A list answer: one page of items and the address of the next, null at the end. */
export function pageSchema<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), next: linkSchema.nullable(), limit: z.number().int() });
}

export const vendorRemovedSchema = z.object({ slug: z.string(), purged: z.boolean(), incidents: z.number().int() });
export const pollRequestedSchema = z.object({ slug: z.string(), requestedAt: utcTimestampSchema, detail: z.string() });

export const problemSchema = z.object({
  type: z.string(),
  status: z.number().int(),
  title: z.string(),
  detail: z.string(),
  parameter: z.string().optional(),
});

const budgetSchema = z.object({ ratePerSecond: z.number(), burst: z.number().int() });
export const hookTelemetrySchema = z.object({
  limits: z.object({ perSource: budgetSchema, ceiling: budgetSchema, maxBodyBytes: z.number().int(), debounceSeconds: z.number(), alertIntervalSeconds: z.number().int() }),
  scopes: z.array(z.object({ scope: z.string().describe('"ceiling", or "source:<vendor>"'), throttled: z.number().int(), lastThrottledAt: z.string().nullable(), lastAlertAt: z.string().nullable() })),
});
