import type { ComponentFigures, GroupFigure } from "@/lib/components/component-figures";
import { formatDuration } from "@/lib/format";

/**
 * The component figures as a reader reads them, the same on the vendor page and in /compare. A
 * figure a vendor's feeds cannot give says so ("not stated"), never 0.
 */

export const NOT_STATED = "not stated: its feeds state no component grid";
const NOT_WATCHED = "unknown: the grid was not watched in this period";

function percent(share: number): string {
  const p = share * 100;
  if (p === 0) return "0%";
  return p < 0.1 ? "under 0.1%" : p < 10 ? `${p.toFixed(1)}%` : `${Math.round(p)}%`;
}

/** "20 days 4 h of 31 days (65%)": how much of the period Redline watched the grid. */
export function describeWatched(f: ComponentFigures | null): string {
  if (f === null || !f.known) return NOT_STATED;
  if (f.periodMs === 0) return "no time in this period";
  return `${formatDuration(f.observedMs)} of ${formatDuration(f.periodMs)} (${percent(f.observedMs / f.periodMs)})`;
}

/** "2 h 10 min (0.3% of the time watched), 45 min of it out": a group's degraded time. */
export function describeDegraded(f: ComponentFigures | null, group?: GroupFigure, options: { outage: boolean } = { outage: true }): string {
  if (f === null || !f.known) return NOT_STATED;
  const g = group ?? f.overall;
  if (g.share === null) return NOT_WATCHED;
  const out = options.outage && g.outageMs > 0 ? `, ${formatDuration(g.outageMs)} of it out` : "";
  const inferred = f.knowledge === "inferred" ? " (inferred from open incidents)" : "";
  return `${formatDuration(g.degradedMs)} (${percent(g.share)} of the time watched)${out}${inferred}`;
}

/** Each group's degraded time, the most first, at most `limit` of them. */
export function describeDegradedByGroup(f: ComponentFigures | null, limit = 3): string {
  if (f === null || !f.known) return NOT_STATED;
  if (f.overall.share === null) return NOT_WATCHED;
  const named = f.groups.filter((g) => g.name !== null);
  if (named.length === 0) return "no groups";
  const top = [...named].sort((a, b) => b.degradedMs - a.degradedMs || (a.name ?? "").localeCompare(b.name ?? "")).slice(0, limit);
  const rest = named.length - top.length;
  return `${top.map((g) => `${g.name ?? ""}: ${formatDuration(g.degradedMs)}${g.share === null ? "" : ` (${percent(g.share)})`}`).join("; ")}${rest > 0 ? `; ${rest} more` : ""}`;
}

export function describeQuiet(f: ComponentFigures | null): string {
  if (f === null || !f.known) return NOT_STATED;
  if (f.quietDegradations === null) return "not stated: components only inferred from incidents";
  return String(f.quietDegradations);
}

/** "23 min (12 of 40 incidents naming components)". */
export function describeLag(f: ComponentFigures | null): string {
  if (f === null || !f.known) return NOT_STATED;
  if (f.lag === null) return "not stated: components only inferred from incidents";
  if (f.lag.naming === 0) return "no incident named a component";
  if (f.lag.medianBeforeSightingMs === null) return `none seen (of ${f.lag.naming} incidents naming components)`;
  return `${formatDuration(f.lag.medianBeforeSightingMs)} (${f.lag.withLag} of ${f.lag.naming} incidents naming components)`;
}
