/** A bar chart drawn as SVG on the server: no script, no network, readable by screen readers. */
/** `scale` sets the top of the axis, so charts compared side by side share one. */
export function BarChart({ data, label, scale }: { data: ReadonlyArray<{ label: string; value: number }>; label: string; scale?: number }) {
  const width = 640;
  const height = 160;
  const pad = { top: 10, right: 8, bottom: 28, left: 32 };
  const max = Math.max(1, scale ?? 0, ...data.map((d) => d.value));
  const band = (width - pad.left - pad.right) / Math.max(1, data.length);
  const y = (v: number) => pad.top + (height - pad.top - pad.bottom) * (1 - v / max);
  const every = Math.max(1, Math.ceil(data.length / 12));
  // A phone shows every other label (tick-sparse), larger: the chart is drawn at half its width there.
  return (
    <figure className="chart">
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={`${label}: ${data.map((d) => `${d.label} ${d.value}`).join(", ")}`}>
        <line x1={pad.left} x2={width - pad.right} y1={y(0)} y2={y(0)} className="axis" />
        <text x={pad.left - 6} y={y(max) + 4} textAnchor="end" className="tick">{max}</text>
        <text x={pad.left - 6} y={y(0)} textAnchor="end" className="tick">0</text>
        {data.map((d, i) => {
          const x = pad.left + i * band;
          return (
            <g key={d.label}>
              <rect x={x + band * 0.15} width={band * 0.7} y={y(d.value)} height={Math.max(0, y(0) - y(d.value))} className="bar">
                <title>{`${d.label}: ${d.value}`}</title>
              </rect>
              {i % every === 0 ? (
                <text x={x + band / 2} y={height - 8} textAnchor="middle" className={i % (every * 2) === 0 ? "tick tick-month tick-sparse" : "tick tick-month"}>{d.label}</text>
              ) : null}
            </g>
          );
        })}
      </svg>
      <figcaption className="visually-hidden">{label}</figcaption>
    </figure>
  );
}
