import { describeDegraded, describeDegradedByGroup, describeLag, describeQuiet, describeWatched } from "@/lib/components/figure-text";
import { describeFigures, type FigureTexts } from "@/lib/vendor-figure-text";
import { computeVendorFigures, type FeedOf, type GridFigureFacts, type IncidentFacts, type VendorFigures } from "@/lib/vendor-figures";

/** Two to four vendors side by side over one period: pure, so every figure is tested alone. */

export interface ComparedVendor {
  slug: string;
  name: string;
  figures: VendorFigures;
  /** Months of the period the vendor's archive covers: rates are per these, not per month of the period. */
  archivedMonths: number;
}

export interface ComparisonRow {
  label: string;
  /** One cell per vendor, in the vendors' order. */
  values: string[];
}

/** The period every vendor is measured over: where their archives overlap, else all of them. */
export function comparisonRange(ranges: ReadonlyArray<{ first: string | null; last: string | null }>): { first: string | null; last: string | null } {
  const known = ranges.filter((r): r is { first: string; last: string } => r.first !== null && r.last !== null);
  if (known.length === 0) return { first: null, last: null };
  const latestFirst = known.map((r) => r.first).sort().at(-1) ?? null;
  const earliestLast = known.map((r) => r.last).sort()[0] ?? null;
  if (latestFirst !== null && earliestLast !== null && latestFirst <= earliestLast && known.length === ranges.length) return { first: latestFirst, last: earliestLast };
  return { first: known.map((r) => r.first).sort()[0] ?? null, last: known.map((r) => r.last).sort().at(-1) ?? null };
}

/** Calendar months (YYYY-MM) from one instant's month to another's, both included; 0 when they are reversed. */
export function monthsSpanned(from: string, to: string): number {
  const index = (iso: string) => Number(iso.slice(0, 4)) * 12 + Number(iso.slice(5, 7)) - 1;
  return Math.max(0, index(to) - index(from) + 1);
}

/** Each vendor's figures over the period, read with what its feeds can show (`feedOf`, as on its own page). */
export function compareVendors(
  vendors: ReadonlyArray<{ slug: string; name: string; facts: readonly IncidentFacts[]; archived: { first: string | null; last: string | null }; feedOf: FeedOf; grid?: GridFigureFacts }>,
  period: { from: string; to: string },
): ComparedVendor[] {
  return vendors.map((v) => {
    const { first, last } = v.archived;
    const archivedMonths = first && last ? monthsSpanned(first > period.from ? first : period.from, last < period.to ? last : period.to) : 0;
    return { slug: v.slug, name: v.name, figures: computeVendorFigures(v.facts, period, v.feedOf, v.grid), archivedMonths };
  });
}

function perMonth(c: ComparedVendor): string {
  if (c.archivedMonths === 0) return "nothing archived";
  const mean = c.figures.incidents / c.archivedMonths;
  return mean >= 10 ? String(Math.round(mean)) : (Math.round(mean * 10) / 10).toFixed(1);
}

/** The comparison table's rows: each figure worded as on the vendor's own page, one cell per vendor. */
export function comparisonRows(compared: readonly ComparedVendor[]): ComparisonRow[] {
  const texts = compared.map((c) => describeFigures(c.figures));
  const row = (label: string, cell: (f: VendorFigures) => string): ComparisonRow => ({ label, values: compared.map((c) => cell(c.figures)) });
  const worded = (label: string, key: keyof FigureTexts): ComparisonRow => ({ label, values: texts.map((t) => t[key]) });
  return [
    row("Incidents", (f) => String(f.incidents)),
    { label: "Months archived", values: compared.map((c) => String(c.archivedMonths)) },
    { label: "Incidents per archived month", values: compared.map(perMonth) },
    row("Busiest month", (f) => {
      const top = [...f.perMonth].sort((a, b) => b.count - a.count || a.month.localeCompare(b.month))[0];
      return top && top.count > 0 ? `${top.month} (${top.count})` : "none";
    }),
    worded("Median time to resolve", "medianResolve"),
    worded("90th percentile time to resolve", "p90Resolve"),
    worded("With a postmortem", "postmortemShare"),
    worded("Median wait for the postmortem", "postmortemWait"),
    worded("Edits after resolution", "editsAfterResolution"),
    worded("Edits after resolution per incident", "editsPerIncident"),
    row("Component grid watched", (f) => describeWatched(f.components)),
    row("Time degraded or out, any component", (f) => describeDegraded(f.components)),
    row("Time degraded or out, by group", (f) => describeDegradedByGroup(f.components)),
    row("Quiet degradations", (f) => describeQuiet(f.components)),
    row("Median acknowledgment lag", (f) => describeLag(f.components)),
  ];
}
