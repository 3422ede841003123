import type { ComponentHistory, ComponentHistoryEntry, QuietDegradation } from "@/lib/components/component-history";
import { componentStatusLabel } from "@/lib/components/component-status";
import { formatDuration, formatUtcSecond, msBetween } from "@/lib/format";
import { escapeMarkdownInline } from "@/lib/render/markdown-text";

/**
 * The vendor export's component grid over time and its quiet degradations, for a person: each
 * component's state now and a compact table of its states; each stretch with what it lasted and
 * the components' names. Vendor text never becomes markup.
 */

const text = (value: string) => escapeMarkdownInline(value) || "(unnamed)";

function stateOf(entry: ComponentHistoryEntry): string {
  return `${componentStatusLabel(entry.status)}${entry.inferred ? " (inferred)" : ""}`;
}

/** "Degraded performance since …", or "Not listed since … (last Operational)" for a component no longer listed. */
function stateNow(component: ComponentHistory): string {
  const last = component.history.at(-1);
  if (!last) return "never observed";
  if (last.until === null) return `${stateOf(last)} since ${formatUtcSecond(last.from)}`;
  return `Not listed since ${formatUtcSecond(last.until)} (last ${stateOf(last)})`;
}

/**
 * Each group's own component followed by its members, the rest in the order they appeared. A
 * member names its group by the group's name, which is how it is matched here.
 */
function groupedOrder(components: readonly ComponentHistory[]): Array<{ component: ComponentHistory; members: number }> {
  const membersOf = new Map<string, ComponentHistory[]>();
  for (const c of components) if (c.group !== null) membersOf.set(c.group, [...(membersOf.get(c.group) ?? []), c]);
  const placed = new Set<ComponentHistory>();
  const out: Array<{ component: ComponentHistory; members: number }> = [];
  for (const c of components) {
    if (placed.has(c) || (c.group !== null && components.some((g) => g.group === null && g.name === c.group))) continue;
    const members = c.group === null ? (membersOf.get(c.name) ?? []) : [];
    out.push({ component: c, members: members.length });
    placed.add(c);
    for (const m of members) {
      if (placed.has(m)) continue;
      out.push({ component: m, members: 0 });
      placed.add(m);
    }
  }
  return out;
}

function renderComponent({ component, members }: { component: ComponentHistory; members: number }): string[] {
  const place = members > 0 ? `, a group of ${members}` : component.group === null ? "" : `, in ${text(component.group)}`;
  const lines = [
    `### ${text(component.name)}`,
    "",
    `Id ${text(component.id)}${place}. Now: ${stateNow(component)}.`,
    "",
    "| From | Until | State | Vendor's word |",
    "|---|---|---|---|",
  ];
  for (const h of component.history) {
    lines.push(`| ${formatUtcSecond(h.from)} | ${h.until === null ? "now" : formatUtcSecond(h.until)} | ${stateOf(h)} | ${text(h.vendorStatus)} |`);
  }
  return [...lines, ""];
}

function renderQuietDegradations(quiet: readonly QuietDegradation[], names: ReadonlyMap<string, string>): string[] {
  const lines = [
    "## Quiet degradations",
    "",
    "Stretches in which components were degraded or out while the vendor had no incident open, from the first capture that showed one to the first that did not.",
    "",
  ];
  if (quiet.length === 0) return [...lines, "None observed.", ""];
  lines.push("| From | Until | Lasted | Components |", "|---|---|---|---|");
  for (const q of quiet) {
    const lasted = q.until === null ? "ongoing" : formatDuration(msBetween(q.from, q.until));
    const components = q.components.map((id) => text(names.get(id) ?? id)).join(", ");
    lines.push(`| ${formatUtcSecond(q.from)} | ${q.until === null ? "now" : formatUtcSecond(q.until)} | ${lasted} | ${components} |`);
  }
  return [...lines, ""];
}

/** The two sections, or nothing for a vendor whose sources never stated or implied a component. */
export function renderComponentsMarkdown(components: readonly ComponentHistory[] | undefined, quiet: readonly QuietDegradation[] | undefined): string[] {
  if (!components || components.length === 0) return [];
  const names = new Map(components.map((c) => [c.id, c.name]));
  const groups = new Set(components.flatMap((c) => (c.group === null ? [] : [c.group]))).size;
  return [
    "## Components",
    "",
    `${components.length} component${components.length === 1 ? "" : "s"}${groups > 0 ? ` in ${groups} group${groups === 1 ? "" : "s"}` : ""}, each state from the first capture that showed it (times UTC); "inferred" marks a state worked out from the incidents open then.`,
    "",
    ...groupedOrder(components).flatMap(renderComponent),
    ...renderQuietDegradations(quiet ?? [], names),
  ];
}
