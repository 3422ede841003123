import { UtcTime } from "@/components/utc-time";
import { foldComponents, QUIET_DEGRADATION_DESCRIPTION, QUIET_DEGRADATION_LABEL, type QuietDegradationView, quietDuration } from "@/lib/components/quiet-degradation";
import type { QuietListEntry } from "@/lib/components/quiet-degradation-list";
import { paths } from "@/lib/incident-key";

/** Each stretch's first few components are named; the rest are counted. */
const NAMED = 3;

function Stretch({ item, now }: { item: QuietDegradationView; now: Date }) {
  const slug = item.vendor.slug;
  const folded = foldComponents(item.components, NAMED);
  const duration = quietDuration(item);
  return (
    <li>
      <div className="change-title">
        {folded.shown.map((c, i) => (
          <span key={c.id}>
            {i > 0 ? ", " : null}
            <a href={paths.component(slug, c.id)}>{c.name}</a>
            {c.group ? <span className="muted"> ({c.group})</span> : null}
          </span>
        ))}
        {folded.more > 0 ? <span className="muted"> +{folded.more} more</span> : null}{" "}
        <span className="badge badge-edit" title={QUIET_DEGRADATION_DESCRIPTION}>
          {QUIET_DEGRADATION_LABEL}
        </span>
      </div>
      <div className="change-meta">
        {duration === null ? <span className="open-state open-state-open">Ongoing at the last capture</span> : <span className="open-state">Lasted {duration}</span>}
        {" · "}
        <a href={paths.vendor(slug)}>{item.vendor.name}</a>
        {" · from "}
        <UtcTime iso={item.from} now={now} />
        {item.until ? (
          <>
            {" to "}
            <UtcTime iso={item.until} relative={false} />
          </>
        ) : null}
      </div>
      <p className="change-summary">
        {item.components.length === 1 ? "Degraded or out" : `${item.components.length} components degraded or out`} while no incident was open.{" "}
        <a href={paths.vendorStatusAt(slug, item.from)}>See the page as it was</a>
      </p>
    </li>
  );
}

/** Quiet degradations newest first: one line per vendor and stretch, its components folded, a vendor's extra stretches folded into one line. */
export function QuietDegradationList({ entries, now, group }: {
  entries: readonly QuietListEntry<QuietDegradationView>[]; now: Date;
  /** The group the list is narrowed to, kept in the links to a vendor's own list. */
  group?: string;
}) {
  if (entries.length === 0) return <p>No quiet degradation matches.</p>;
  return (
    <ol className="change-list quiet-list">
      {entries.map((e) =>
        e.kind === "stretch" ? (
          <Stretch key={`${e.item.vendor.slug} ${e.item.from}`} item={e.item} now={now} />
        ) : (
          <li key={`more ${e.vendor.slug}`} className="quiet-more">
            <a href={`${paths.quietDegradations(e.vendor.slug)}${group ? `&group=${encodeURIComponent(group)}` : ""}`}>
              {e.count} more from {e.vendor.name}
            </a>
          </li>
        ),
      )}
    </ol>
  );
}
