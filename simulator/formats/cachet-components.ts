/**
 * Cachet's component lists: 2.x's /api/v1/components (numbered states 1–4, `group_id` 0 for none)
 * and /api/v1/components/groups (each group with its enabled components, worst first), and 3.x's
 * /api/components?include=group (JSON:API, `status` as set and `latest_status` as the page shows
 * it, the groups under `included`). 2.x has no maintenance state: a component under maintenance
 * stays operational there. Components keep their numbers for life (simulator/components.ts); groups
 * are numbered by their place on the page.
 */
import type { ComponentReading } from "@/lib/components/component-grid";
import type { ComponentStatus } from "@/lib/components/component-status";
import type { Incident } from "@/lib/incident";
import { affectingIncidents, groupsOf, type ShownComponent } from "@/simulator/components";
import { componentNumber } from "@/simulator/formats/cachet";
import { jsonBody, type VendorView, type WireFormat } from "@/simulator/formats/wire-format";

const PER_PAGE = 500;
const NAMES: Readonly<Record<number, string>> = { 0: "Unknown", 1: "Operational", 2: "Performance Issues", 3: "Partial Outage", 4: "Major Outage", 5: "Unknown", 6: "Under Maintenance" };
const READ: Readonly<Record<number, ComponentStatus>> = { 0: "unknown", 1: "operational", 2: "degraded", 3: "partial-outage", 4: "major-outage", 5: "unknown", 6: "maintenance" };
const V2_CODE: Record<ComponentStatus, number> = { operational: 1, degraded: 2, "partial-outage": 3, "major-outage": 4, maintenance: 1, unknown: 0 };
const V3_CODE: Record<ComponentStatus, number> = { ...V2_CODE, maintenance: 6, unknown: 5 };

const numberOf = (view: VendorView, c: ShownComponent): number => componentNumber(view, c.id) ?? 0;

/** Groups numbered in the order they appear on the page. */
function groupNumbers(view: VendorView): Map<string, number> {
  return new Map(groupsOf(view.grid).map((g, i) => [g.id, i + 1]));
}

function pagination(count: number) {
  return { pagination: { total: count, count, per_page: PER_PAGE, current_page: 1, total_pages: 1, links: { next_page: null, previous_page: null } } };
}

function v2Component(view: VendorView, c: ShownComponent, groups: ReadonlyMap<string, number>) {
  const code = V2_CODE[c.status];
  return { id: numberOf(view, c), name: c.name, description: "", link: "", status: code, order: numberOf(view, c) - 1, group_id: c.group ? (groups.get(c.group.id) ?? 0) : 0, enabled: true, status_name: NAMES[code] };
}

const reading = (id: string, name: string, groupId: string | null, isGroup: boolean, code: number): ComponentReading => ({
  id, name, groupId, isGroup, status: READ[code] ?? "unknown", vendorStatus: NAMES[code] ?? String(code), vendorChangedAt: null,
});

export const cachetV2ComponentsFormat: WireFormat = {
  parser: "cachet-v2-components",
  contentType: "application/json",
  defaultPath: () => "/api/v1/components",
  listsIncidents: false,
  select: (view) => affectingIncidents(view.incidents),
  render(_listed, view) {
    const groups = groupNumbers(view);
    return jsonBody({ meta: pagination(view.grid.length), data: view.grid.map((c) => v2Component(view, c, groups)) });
  },
  readBack: (incident: Incident) => incident,
  readBackGrid(_listed, view) {
    const groups = groupNumbers(view);
    return view.grid.map((c) => reading(String(numberOf(view, c)), c.name, c.group ? `group-${groups.get(c.group.id) ?? 0}` : null, false, V2_CODE[c.status]));
  },
};

export const cachetV2GroupsFormat: WireFormat = {
  parser: "cachet-v2-groups",
  contentType: "application/json",
  defaultPath: () => "/api/v1/components/groups",
  listsIncidents: false,
  select: (view) => affectingIncidents(view.incidents),
  render(_listed, view) {
    const numbers = groupNumbers(view);
    const data = groupsOf(view.grid).map((g) => {
      const members = g.members.map((c) => v2Component(view, c, numbers));
      const lowest = [...members].sort((a, b) => b.status - a.status);
      return { id: numbers.get(g.id), name: g.name, order: (numbers.get(g.id) ?? 1) - 1, collapsed: 0, visible: 1, enabled_components: members, enabled_components_lowest: lowest, lowest_human_status: lowest[0]?.status_name ?? null };
    });
    return jsonBody({ meta: pagination(data.length), data });
  },
  readBack: (incident: Incident) => incident,
  readBackGrid(_listed, view) {
    const numbers = groupNumbers(view);
    return groupsOf(view.grid).map((g) => reading(`group-${numbers.get(g.id) ?? 0}`, g.name, null, true, Math.max(...g.members.map((c) => V2_CODE[c.status]))));
  },
};

export const cachetV3ComponentsFormat: WireFormat = {
  parser: "cachet-v3-components",
  contentType: "application/json",
  defaultPath: () => "/api/components",
  listsIncidents: false,
  select: (view) => affectingIncidents(view.incidents),
  render(_listed, view) {
    const numbers = groupNumbers(view);
    const data = view.grid.map((c) => {
      const n = numberOf(view, c);
      const code = V3_CODE[c.status];
      const group = c.group ? { type: "componentGroups", id: String(numbers.get(c.group.id) ?? 0) } : null;
      return {
        id: String(n),
        type: "components",
        attributes: { id: n, name: c.name, description: "", link: null, order: n - 1, status: { human: NAMES[1], value: 1 }, latest_status: { human: NAMES[code], value: code }, enabled: true },
        relationships: { group: { data: group } },
      };
    });
    const included = groupsOf(view.grid).map((g) => {
      const n = numbers.get(g.id) ?? 0;
      return { id: String(n), type: "componentGroups", attributes: { id: n, name: g.name, order: n - 1, collapsed: 0, visible: 1 } };
    });
    const path = `${view.baseUrl}/api/components`;
    return jsonBody({ data, included, links: { first: `${path}?page=1`, last: null, prev: null, next: null }, meta: { current_page: 1, from: 1, path, per_page: 100, to: data.length } });
  },
  readBack: (incident: Incident) => incident,
  readBackGrid(_listed, view) {
    return view.grid.map((c) => reading(String(numberOf(view, c)), c.name, c.group?.name ?? null, false, V3_CODE[c.status]));
  },
};
