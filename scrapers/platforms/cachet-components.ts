/**
 * Cachet's component grid. Component states are numbers (https://github.com/cachethq/docs/blob/3.x/src/component-statuses.md):
 * 1 operational, 2 performance issues, 3 partial outage, 4 major outage; 3.x adds 5 unknown and 6
 * under maintenance (cachethq/core ComponentStatusEnum), and 2.x shows 0 as unknown. The vendor's
 * word kept beside the state is Cachet's English name of the number, the same in every locale.
 * - 2.x `GET /api/v1/components`: `{meta: {pagination}, data: [{id, name, status, group_id, updated_at}]}`
 *   (group_id 0 for none), and `GET /api/v1/components/groups`: `{data: [{id, name, enabled_components,
 *   enabled_components_lowest}]}`, whose state is that of its worst enabled component, as its page
 *   shows it. Groups are keyed `group-<id>`, apart from the components' own numbers.
 * - 3.x `GET /api/components?include=group`: JSON:API `data[].attributes` with `status` and
 *   `latest_status` (the state its open incidents and maintenances give it, as the page shows it)
 *   as `{human, value}`, its group under `included` by name: 3.x states no state of a group's own.
 * Both are paginated: a page that is not the last is a part of the grid, and judges none gone.
 */
import { z } from "zod";
import type { ComponentGrid } from "@/lib/components/component-grid";
import type { StatusWords } from "@/lib/components/component-status";
import { PLATFORM_PROFILES } from "@/lib/platform-profiles";
import { idField, optionalCachetTime, statusField } from "@/scrapers/platforms/cachet";
import { type ComponentRead, rawIdOf, readComponentGrid } from "@/scrapers/platforms/component-reader";
import { decodeJson, parseWithSchema, type Platform } from "@/scrapers/platforms/platform";
import { isRecord, joinPath, SnapshotReader } from "@/scrapers/platforms/snapshot-reader";

const CACHET_STATUS_NAMES: Readonly<Record<number, string>> = {
  0: "Unknown", 1: "Operational", 2: "Performance Issues", 3: "Partial Outage", 4: "Major Outage", 5: "Unknown", 6: "Under Maintenance",
};

export const CACHET_STATUS_WORDS: StatusWords = {
  Operational: "operational",
  "Performance Issues": "degraded",
  "Partial Outage": "partial-outage",
  "Major Outage": "major-outage",
  Unknown: "unknown",
  "Under Maintenance": "maintenance",
};

/** Cachet's name of a state number; the number itself for one Cachet does not name (read as unknown, with a warning). */
function cachetWord(code: number): string {
  return CACHET_STATUS_NAMES[code] ?? String(code);
}

/** A grid read from one page of a paginated list: a page before the last lists only part of it. */
function pageOfGrid(grid: ComponentGrid | undefined, more: boolean): ComponentGrid | undefined {
  if (grid && more) grid.partial = "page";
  return grid;
}

const paginationSchema = z
  .object({ pagination: z.object({ current_page: z.number().nullish(), total_pages: z.number().nullish(), links: z.object({ next_page: z.string().nullish() }).nullish() }).nullish() })
  .nullish();
const v2ListSchema = z.object({ meta: z.unknown().optional(), data: z.array(z.unknown()) });

/** Whether the 2.x list goes on past this page; an unreadable pagination is taken to say it may. */
function v2HasMore(reader: SnapshotReader, meta: unknown): boolean {
  const read = paginationSchema.safeParse(meta);
  if (!read.success) {
    reader.warn("meta.pagination", "unreadable pagination: the list may go on, so no component is judged gone");
    return true;
  }
  const p = read.data?.pagination;
  if (!p) return false;
  return Boolean(p.links?.next_page) || (p.total_pages ?? 1) > (p.current_page ?? 1);
}

const v2ComponentShape = {
  id: idField,
  name: z.string(),
  status: statusField,
  group_id: z.union([z.number().int(), z.string().trim().regex(/^\d+$/)]).nullish().transform((v) => (v === null || v === undefined ? 0 : Number(v))),
  updated_at: optionalCachetTime,
};

function readV2Component(reader: SnapshotReader, raw: unknown, path: string): ComponentRead {
  const read = reader.fields(v2ComponentShape, raw, path);
  const id = read?.values.id;
  if (!read || id === undefined) return { unreadId: read ? null : rawIdOf(raw) };
  const { values: v, failed } = read;
  if (v.name === undefined || v.status === undefined || failed.has("group_id")) return { unreadId: id };
  const groupId = v.group_id === undefined || v.group_id === 0 ? null : `group-${v.group_id}`;
  return { component: { id, name: v.name, groupId, isGroup: false, vendorStatus: cachetWord(v.status), vendorChangedAt: v.updated_at ?? null } };
}

const memberStatusSchema = z.object({ status: statusField });
const v2GroupShape = { id: idField, name: z.string(), enabled_components_lowest: z.unknown(), enabled_components: z.unknown() };

/** A group's state: its worst enabled component's; undefined when it has none, or none can be read. */
function worstMember(reader: SnapshotReader, members: unknown, path: string): number | undefined {
  if (!Array.isArray(members)) return undefined;
  let worst: number | undefined;
  members.forEach((m: unknown, i) => {
    const read = memberStatusSchema.safeParse(m);
    if (!read.success) {
      reader.warn(joinPath(path, i, "status"), read.error.issues[0]?.message ?? "unreadable");
      worst = Number.NaN;
      return;
    }
    if (worst === undefined || read.data.status > worst) worst = read.data.status;
  });
  return worst === undefined || Number.isNaN(worst) ? undefined : worst;
}

function readV2Group(reader: SnapshotReader, raw: unknown, path: string): ComponentRead {
  const read = reader.fields(v2GroupShape, raw, path);
  const rawId = read?.values.id;
  if (!read || rawId === undefined) return { unreadId: null };
  const id = `group-${rawId}`;
  const { values: v } = read;
  const lowest = Array.isArray(v.enabled_components_lowest) ? "enabled_components_lowest" : "enabled_components";
  const worst = worstMember(reader, v[lowest], joinPath(path, lowest));
  // A group whose state cannot be told keeps the one it had.
  if (v.name === undefined || worst === undefined) return { unreadId: id };
  return { component: { id, name: v.name, groupId: null, isGroup: true, vendorStatus: cachetWord(worst), vendorChangedAt: null }, statusPath: joinPath(path, lowest) };
}

const humanStatus = z.object({ value: statusField }).passthrough();
const v3ComponentShape = {
  id: idField,
  attributes: z.unknown(),
  relationships: z.object({ group: z.object({ data: z.object({ id: idField }).nullish() }).nullish() }).nullish(),
};
const v3AttributesShape = { name: z.string(), status: humanStatus.nullish(), latest_status: humanStatus.nullish(), updated: z.object({ string: optionalCachetTime }).nullish() };
const v3ListSchema = z.object({ data: z.array(z.unknown()), included: z.unknown().optional(), links: z.unknown().optional() });
const v3GroupShape = { id: idField, type: z.string(), attributes: z.object({ name: z.string() }) };

/** The names of the included component groups; null for a group listed but unreadable. */
function v3GroupNames(reader: SnapshotReader, included: unknown): { names: Map<string, string | null>; blind: boolean } {
  const names = new Map<string, string | null>();
  if (!Array.isArray(included)) return { names, blind: included !== undefined && included !== null };
  let blind = false;
  included.forEach((entry: unknown, i) => {
    const type = isRecord(entry) ? entry.type : undefined;
    if (type !== "componentGroups" && type !== undefined) return;
    const path = joinPath("included", i);
    const read = reader.fields(v3GroupShape, entry, path);
    const id = read?.values.id;
    if (id === undefined) blind = true;
    else names.set(id, read?.values.attributes?.name ?? null);
  });
  return { names, blind };
}

function readV3Component(reader: SnapshotReader, raw: unknown, path: string, groups: ReturnType<typeof v3GroupNames>): ComponentRead {
  const head = reader.fields(v3ComponentShape, raw, path);
  const id = head?.values.id;
  if (!head || id === undefined) return { unreadId: head ? null : rawIdOf(raw) };
  const read = reader.fields(v3AttributesShape, head.values.attributes, joinPath(path, "attributes"));
  const name = read?.values.name;
  if (!read || name === undefined || head.failed.has("relationships")) return { unreadId: id };
  const { values: a, failed } = read;
  // The state the page shows: with its open incidents and maintenances, where Cachet says so.
  const shown = failed.has("latest_status") ? undefined : (a.latest_status ?? (failed.has("status") ? undefined : a.status));
  const groupId = head.values.relationships?.group?.data?.id ?? null;
  const group = groupId === null ? null : groups.names.get(groupId);
  // A group whose name cannot be read cannot place its members; one not included at all is not known, so its members stand alone.
  if (!shown || (groupId !== null && (group === null || (group === undefined && groups.blind)))) return { unreadId: id };
  return {
    component: { id, name, groupId: group ?? null, isGroup: false, vendorStatus: cachetWord(shown.value), vendorChangedAt: failed.has("updated") ? null : (a.updated?.string ?? null) },
    statusPath: joinPath(path, "attributes", a.latest_status ? "latest_status" : "status"),
  };
}

const v3LinksSchema = z.object({ next: z.string().nullish() }).nullish();

/** A 2.x list read item by item into a grid, as much of it as its page holds. */
function v2ListPlatform(name: "cachet-v2-components" | "cachet-v2-groups", description: string, readOne: (reader: SnapshotReader, raw: unknown, path: string) => ComponentRead): Platform {
  return {
    name,
    description,
    profile: PLATFORM_PROFILES[name],
    parserVersion: 1,
    async parse(body, ctx) {
      const raw = parseWithSchema(v2ListSchema, decodeJson(body, ctx), ctx);
      const reader = new SnapshotReader(ctx);
      const grid = readComponentGrid(reader, raw.data, "data", CACHET_STATUS_WORDS, (item, path) => readOne(reader, item, path));
      reader.grid = pageOfGrid(grid, v2HasMore(reader, raw.meta));
      return reader.snapshot();
    },
  };
}

export const cachetV2ComponentsPlatform = v2ListPlatform(
  "cachet-v2-components",
  "Cachet 2.x API v1 /api/v1/components: the component grid and each component's state",
  readV2Component,
);

export const cachetV2GroupsPlatform = v2ListPlatform(
  "cachet-v2-groups",
  "Cachet 2.x API v1 /api/v1/components/groups: the component groups, each in the state of its worst component",
  readV2Group,
);

export const cachetV3ComponentsPlatform: Platform = {
  name: "cachet-v3-components",
  description: "Cachet 3.x /api/components?include=group: the component grid and each component's state",
  profile: PLATFORM_PROFILES["cachet-v3-components"],
  parserVersion: 1,
  async parse(body, ctx) {
    const raw = parseWithSchema(v3ListSchema, decodeJson(body, ctx), ctx);
    const reader = new SnapshotReader(ctx);
    const groups = v3GroupNames(reader, raw.included);
    const grid = readComponentGrid(reader, raw.data, "data", CACHET_STATUS_WORDS, (item, path) => readV3Component(reader, item, path, groups));
    const links = v3LinksSchema.safeParse(raw.links);
    reader.grid = pageOfGrid(grid, !links.success || Boolean(links.data?.next));
    return reader.snapshot();
  },
};

export const cachetComponentPlatforms: Platform[] = [cachetV2ComponentsPlatform, cachetV2GroupsPlatform, cachetV3ComponentsPlatform];
