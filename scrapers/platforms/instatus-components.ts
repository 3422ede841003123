/**
 * Instatus's public component list, `<page>/v2/components.json`: `{components: [{id, name, status,
 * group}]}`, states in Instatus's words (https://instatus.com/help/webhooks lists them; the admin
 * API at https://instatus.com/help/api/components uses the same). Instatus does not document this
 * public endpoint; its pages serve it beside /summary.json, which lists no components. A group is
 * a heading with a name (`group: {name}`, or the name alone) and no state of its own here.
 */
import { z } from "zod";
import type { StatusWords } from "@/lib/components/component-status";
import { PLATFORM_PROFILES } from "@/lib/platform-profiles";
import { type ComponentRead, rawIdOf, readComponentGrid } from "@/scrapers/platforms/component-reader";
import { decodeJson, parseWithSchema, type Platform } from "@/scrapers/platforms/platform";
import { SnapshotReader } from "@/scrapers/platforms/snapshot-reader";

export const INSTATUS_STATUS_WORDS: StatusWords = {
  OPERATIONAL: "operational",
  UNDERMAINTENANCE: "maintenance",
  DEGRADEDPERFORMANCE: "degraded",
  PARTIALOUTAGE: "partial-outage",
  MINOROUTAGE: "partial-outage",
  MAJOROUTAGE: "major-outage",
};

const groupField = z.union([z.string(), z.object({ name: z.string().nullish() }).passthrough()]).nullish();

const componentShape = {
  id: z.string().min(1),
  name: z.string(),
  status: z.string().min(1),
  group: groupField,
};

/** The group's name, the key its members are grouped by; null at the top level. */
function groupName(group: z.infer<typeof groupField>): string | null {
  const name = typeof group === "string" ? group : group?.name;
  return name ? name : null;
}

function readComponent(reader: SnapshotReader, raw: unknown, path: string): ComponentRead {
  const read = reader.fields(componentShape, raw, path);
  const id = read?.values.id;
  if (!read || id === undefined) return { unreadId: read ? null : rawIdOf(raw) };
  const { values: v, failed } = read;
  if (v.name === undefined || v.status === undefined || failed.has("group")) return { unreadId: id };
  return { component: { id, name: v.name, groupId: groupName(v.group), isGroup: false, vendorStatus: v.status, vendorChangedAt: null } };
}

const componentsSchema = z.object({ components: z.array(z.unknown()) });

export const instatusComponentsPlatform: Platform = {
  name: "instatus-components",
  description: "Instatus /v2/components.json: the component grid and each component's state",
  profile: PLATFORM_PROFILES["instatus-components"],
  parserVersion: 1,
  async parse(body, ctx) {
    const list = parseWithSchema(componentsSchema, decodeJson(body, ctx), ctx);
    const reader = new SnapshotReader(ctx);
    reader.grid = readComponentGrid(reader, list.components, "components", INSTATUS_STATUS_WORDS, (item, path) => readComponent(reader, item, path));
    return reader.snapshot();
  },
};
