import { z } from "zod";
import { CHANGE_KIND_NAMES, type ChangeKindName } from "@/lib/change-kinds";
import { statusAtSchema } from "@/lib/components/status-instant";
import { QUIET_DEGRADATION_KIND } from "@/lib/components/quiet-degradation";
import { ENTRY_KIND_NAMES, type EntryKindName } from "@/lib/entry-kinds";
import { impactSchema } from "@/lib/incident";
import { searchWordsProblem } from "@/lib/search-words";

/**
 * Query parameters of the archive's pages, validated the same way by the proxy (which answers a
 * bad one with a 400 page saying what was wrong) and by the page itself.
 */
const cursor = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z_\d+$/, "not a page cursor from this site");
const slug = z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "not a vendor slug");
const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "expected a date as YYYY-MM-DD")
  .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), "not a real date");
const oneOrMany = <T extends z.ZodType>(item: T) => z.union([item, z.array(item).max(20)]).transform((v) => (Array.isArray(v) ? v : [v]));
const blankAsMissing = (value: unknown) => (value === "" ? undefined : value);
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blankAsMissing, schema.optional());

const kindName = z.enum(CHANGE_KIND_NAMES as [ChangeKindName, ...ChangeKindName[]], {
  error: (issue) => `unknown change kind ${JSON.stringify(String(issue.input).slice(0, 40))}`,
});

/** A component group's name, as quiet degradations are narrowed by. */
const groupName = z.string().trim().min(1, "a group's name").max(200, "at most 200 characters");

export const changesParamsSchema = z
  .strictObject({
    show: optional(z.enum(["quiet", "degradations", "new", "all"], { error: "expected quiet, degradations, new or all" })),
    kind: optional(oneOrMany(kindName)),
    vendor: optional(slug),
    group: optional(groupName),
    before: optional(cursor),
  })
  .refine((p) => p.group === undefined || (p.show === "degradations" && !p.kind), { message: "a group narrows quiet degradations: use it with show=degradations", path: ["group"] });

export const vendorsParamsSchema = z.strictObject({
  q: optional(z.string().max(100, "at most 100 characters")),
  state: optional(z.enum(["incident", "unknown", "clear"])),
  sort: optional(z.enum(["name", "now"])),
});

/**
 * Date filters are since/until on every page, as in the API; from/to, the pages' earlier names,
 * still work so old links do.
 */
const period = { since: optional(day), until: optional(day), from: optional(day), to: optional(day) };
function withPeriodAliases<T extends { since?: string; until?: string; from?: string; to?: string }>({ from, to, ...rest }: T): Omit<T, "from" | "to"> {
  return { ...rest, since: rest.since ?? from, until: rest.until ?? to };
}

export const vendorProfileParamsSchema = z.strictObject({
  ...period,
  impact: optional(z.union([impactSchema, z.literal("unknown")])),
  status: optional(z.string().max(40).regex(/^[a-z_ -]+$/, "not a status")),
  component: optional(z.string().max(200)),
  before: optional(cursor),
}).transform(withPeriodAliases);

/** A component's page: the last 30, 90 or 365 days, or the days from `since` to `until`. */
export const componentPageParamsSchema = z.strictObject({
  ...period,
  days: optional(z.enum(["30", "90", "365"], { error: "expected 30, 90 or 365" }).transform((d) => Number(d) as 30 | 90 | 365)),
}).transform(withPeriodAliases);

export const vendorChangesParamsSchema = z.strictObject({
  kind: optional(oneOrMany(kindName)),
  before: optional(cursor),
});

export const compareParamsSchema = z.strictObject({
  from: z.coerce.number({ error: "expected a version number" }).int().min(1),
  to: z.coerce.number({ error: "expected a version number" }).int().min(1),
});

/** A search box's words, within SEARCH_LIMITS (the reason says which limit and what to do). */
export const searchWordsSchema = z.string().max(200, "at most 200 characters").superRefine((q, ctx) => {
  const problem = searchWordsProblem(q);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
});

export const searchParamsSchema = z.strictObject({
  q: optional(searchWordsSchema),
  vendor: optional(slug),
  ...period,
  page: optional(z.coerce.number({ error: "expected a page number" }).int("expected a page number").min(1, "pages start at 1").max(20, "at most 20 pages of results")),
}).transform(withPeriodAliases);

/** The vendors compared side by side: two to four slugs, comma-separated or repeated. */
const vendorList = z
  .union([z.string(), z.array(z.string()).max(4)])
  .transform((v) => [...new Set((Array.isArray(v) ? v : [v]).flatMap((s) => s.split(",")).map((s) => s.trim()).filter((s) => s !== ""))])
  .pipe(z.array(slug).min(2, "compare at least two vendors").max(4, "compare at most four vendors"));

export const vendorComparisonParamsSchema = z
  .strictObject({ vendors: optional(vendorList), pick: optional(slug), ...period })
  .transform(withPeriodAliases)
  .refine((p) => !p.since || !p.until || p.since <= p.until, { message: "since must not be after until", path: ["since"] });

export const noParamsSchema = z.strictObject({});

/** The page as it was: the moment (the time picker sends it without an offset, as UTC); none is now. */
export const statusPageParamsSchema = z.strictObject({ at: optional(statusAtSchema) });

/** A watchlist's page: only the change list's cursor. */
export const watchlistParamsSchema = z.strictObject({ before: optional(cursor) });

const entryKindName = z.enum(ENTRY_KIND_NAMES as [EntryKindName, ...EntryKindName[]], {
  error: (issue) => `unknown kind ${JSON.stringify(String(issue.input).slice(0, 40))} (a change kind or ${QUIET_DEGRADATION_KIND})`,
});

/**
 * A feed's filters: more kinds (where the address names none; quiet degradations among them), the
 * incident's impact, a component, and a component group (which narrows quiet degradations only).
 */
export const feedParamsSchema = z.strictObject({
  kind: optional(oneOrMany(entryKindName)),
  group: optional(groupName),
  impact: optional(oneOrMany(z.union([impactSchema, z.literal("unknown")], { error: "expected an impact (none, minor, major, critical, maintenance or unknown)" }))),
  component: optional(z.string().max(200, "at most 200 characters")),
});

/** Next passes repeated parameters as arrays; URLSearchParams gives the same shape here. */
export function searchParamsToObject(params: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(params.keys())) {
    const all = params.getAll(key);
    out[key] = all.length === 1 ? (all[0] ?? "") : all;
  }
  return out;
}

/** "kind: Invalid option …" for the first problem, naming the parameter. */
export function describeParamError(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return "invalid query parameters";
  if (issue.code === "unrecognized_keys") return `unknown parameter ${issue.keys.map((k) => `"${k}"`).join(", ")}`;
  const name = issue.path[0] === undefined ? "query" : String(issue.path[0]);
  // One value or a list of them: the branch that got furthest into the value says what is wrong.
  const inner =
    issue.code === "invalid_union"
      ? issue.errors
          .map((branch) => branch[0])
          .filter((i) => i !== undefined)
          .sort((a, b) => b.path.length - a.path.length || Number(a.code === "invalid_type") - Number(b.code === "invalid_type"))[0]
      : undefined;
  return `${name}: ${inner?.message ?? issue.message}`;
}

/** Which schema checks which route's query string. */
export function paramsSchemaFor(pathname: string): z.ZodType | null {
  if (pathname === "/") return changesParamsSchema;
  if (pathname === "/vendors") return vendorsParamsSchema;
  if (pathname === "/search") return searchParamsSchema;
  if (pathname === "/compare") return vendorComparisonParamsSchema;
  if (pathname === "/watch") return noParamsSchema;
  if (/^\/watch\/[^/]+$/.test(pathname)) return watchlistParamsSchema;
  if (/^\/vendors\/[^/]+$/.test(pathname)) return vendorProfileParamsSchema;
  if (/^\/vendors\/[^/]+\/changes$/.test(pathname)) return vendorChangesParamsSchema;
  if (/^\/vendors\/[^/]+\/status$/.test(pathname)) return statusPageParamsSchema;
  if (/^\/vendors\/[^/]+\/components\/[^/]+$/.test(pathname)) return componentPageParamsSchema;
  if (/^\/vendors\/[^/]+\/incidents\/[^/]+\/compare$/.test(pathname)) return compareParamsSchema;
  if (/^\/vendors\/[^/]+\/incidents\/[^/]+(\/versions\/[^/]+)?$/.test(pathname)) return noParamsSchema;
  return null;
}
