/**
 * Statuspage's component grid: the `components` of `/api/v2/summary.json` and of
 * `/api/v2/components.json` (https://developer.statuspage.io/, https://metastatuspage.com/api/v2/#components).
 * A group is a component (`group: true`) whose members name it in `group_id`.
 */
import { z } from "zod";
import type { StatusWords } from "@/lib/components/component-status";
import { PLATFORM_PROFILES } from "@/lib/platform-profiles";
import { type ComponentRead, rawIdOf, readComponentGrid } from "@/scrapers/platforms/component-reader";
import { decodeJson, optionalUtcTimestampField, parseWithSchema, type Platform } from "@/scrapers/platforms/platform";
import { SnapshotReader } from "@/scrapers/platforms/snapshot-reader";
import { readStatuspagePage } from "@/scrapers/platforms/statuspage-schema";

export const STATUSPAGE_STATUS_WORDS: StatusWords = {
  operational: "operational",
  degraded_performance: "degraded",
  partial_outage: "partial-outage",
  major_outage: "major-outage",
  under_maintenance: "maintenance",
};

const componentShape = {
  id: z.string().min(1),
  name: z.string(),
  status: z.string().min(1),
  updated_at: optionalUtcTimestampField,
  group_id: z.string().nullish(),
  group: z.boolean().nullish(),
};

function readComponent(reader: SnapshotReader, raw: unknown, path: string): ComponentRead {
  const read = reader.fields(componentShape, raw, path);
  const id = read?.values.id;
  if (!read || id === undefined) return { unreadId: read ? null : rawIdOf(raw) };
  const { values: v, failed } = read;
  // Without its name, state or group the component cannot be placed: it keeps its last state.
  if (v.name === undefined || v.status === undefined || failed.has("group_id") || failed.has("group")) return { unreadId: id };
  return {
    component: {
      id,
      name: v.name,
      groupId: v.group_id ?? null,
      isGroup: v.group === true,
      vendorStatus: v.status,
      vendorChangedAt: v.updated_at ?? null,
    },
  };
}

/** The grid of a Statuspage snapshot's `components` list, when it has one. */
export function readStatuspageComponents(reader: SnapshotReader, raw: unknown): void {
  reader.grid = readComponentGrid(reader, raw, "components", STATUSPAGE_STATUS_WORDS, (item, path) => readComponent(reader, item, path));
}

const componentsSchema = z.object({ page: z.unknown().optional(), components: z.array(z.unknown()) });

export const statuspageComponentsPlatform: Platform = {
  name: "statuspage-components",
  description: "Atlassian Statuspage /api/v2/components.json: the component grid and each component's state",
  profile: PLATFORM_PROFILES["statuspage-components"],
  parserVersion: 1,
  async parse(body, ctx) {
    const list = parseWithSchema(componentsSchema, decodeJson(body, ctx), ctx);
    const reader = new SnapshotReader(ctx);
    readStatuspagePage(reader, list.page);
    readStatuspageComponents(reader, list.components);
    return reader.snapshot();
  },
};
