/**
 * A bar chart drawn as SVG on the server: no script, no network, readable by screen readers.
 * Geometry is in percentages of the drawing, text in the page's own sizes, so labels never shrink
 * with the chart. Which month labels show depends on the chart's width (container queries in
 * app/globals.css, `.chart .from-<tier>`): each tier keeps every k-th label, k chosen so that
 * labels stand apart at the tier's narrowest width.
 */

/** The chart widths (rem) from which each tier starts, as app/globals.css's container queries say; tier 0 is assumed at least 16rem wide. */
const TIER_WIDTHS_REM = [16, 20, 24, 30, 40, 52, 64] as const;
/** The axis column and the room kept right of the bars for the last label's overhang (app/globals.css). */
const AXIS_REM = 2.5;
const END_REM = 1.75;
/** A month label ("2026-03" at the small text size) and the gap after it. */
const LABEL_REM = 4.5;
/** The bars' top and baseline, as percentages of the drawing's height; below the baseline sit the labels. */
const TOP = 6;
const BASE = 82;

/**
 * For each label, the first tier at which it shows, or null when it never does. Steps only shrink
 * as the chart widens, each a multiple of the next, so a label shown at one width stays shown wider.
 */
export function labelTiers(count: number): Array<number | null> {
  const need = TIER_WIDTHS_REM.map((w) => Math.max(1, Math.ceil((LABEL_REM * count) / (w - AXIS_REM - END_REM))));
  const steps = [...need];
  for (let t = steps.length - 2; t >= 0; t -= 1) {
    const wider = steps[t + 1] ?? 1;
    steps[t] = wider * Math.ceil((need[t] ?? 1) / wider);
  }
  return Array.from({ length: count }, (_, i) => {
    const tier = steps.findIndex((step) => i % step === 0);
    return tier === -1 ? null : tier;
  });
}

const pct = (n: number) => `${Number(n.toFixed(3))}%`;

/** `scale` sets the top of the axis, so charts compared side by side share one. */
export function BarChart({ data, label, scale }: { data: ReadonlyArray<{ label: string; value: number }>; label: string; scale?: number }) {
  const max = Math.max(1, scale ?? 0, ...data.map((d) => d.value));
  const band = 100 / Math.max(1, data.length);
  const y = (v: number) => TOP + (BASE - TOP) * (1 - v / max);
  const tiers = labelTiers(data.length);
  return (
    <figure className="chart">
      <div className="chart-frame">
        <svg className="chart-axis" aria-hidden="true" focusable="false">
          <text x="100%" y={pct(y(max))} dx="-0.4em" dy="0.35em" textAnchor="end" className="tick">{max}</text>
          <text x="100%" y={pct(y(0))} dx="-0.4em" dy="0.35em" textAnchor="end" className="tick">0</text>
        </svg>
        <svg className="chart-plot" role="img" aria-label={`${label}: ${data.map((d) => `${d.label} ${d.value}`).join(", ")}`}>
          <line x1="0" x2="100%" y1={pct(y(0))} y2={pct(y(0))} className="axis" />
          {data.map((d, i) => {
            const tier = tiers[i] ?? null;
            return (
              <g key={d.label}>
                <rect x={pct((i + 0.15) * band)} width={pct(band * 0.7)} y={pct(y(d.value))} height={pct(Math.max(0, y(0) - y(d.value)))} className="bar">
                  <title>{`${d.label}: ${d.value}`}</title>
                </rect>
                {tier === null ? null : (
                  <text x={pct((i + 0.5) * band)} y="100%" dy="-0.35em" textAnchor="middle" className={`tick tick-month from-${tier}`}>{d.label}</text>
                )}
              </g>
            );
          })}
        </svg>
      </div>
      <figcaption className="visually-hidden">{label}</figcaption>
    </figure>
  );
}
