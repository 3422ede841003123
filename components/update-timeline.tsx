import { formatUtcMinute } from "@/lib/format";
import type { IncidentUpdate } from "@/lib/incident";
import { renderVendorMarkdownAt } from "@/lib/render/vendor-markdown";
import { statusLabel } from "@/lib/labels";

/** Past this many updates the older ones wait behind an expander that works without JavaScript. */
const SHOWN_UPDATES = 4;

function TimelineEntry({ update: u }: { update: IncidentUpdate }) {
  const at = u.displayAt ?? u.createdAt;
  return (
    <li>
      <div className="timeline-head">
        <strong>{u.status ? statusLabel(u.status) : "Update"}</strong> {at ? <time dateTime={at}>{formatUtcMinute(at)}</time> : null}
      </div>
      <div className="update-body" dangerouslySetInnerHTML={{ __html: renderVendorMarkdownAt(u.body, 3) }} />
    </li>
  );
}

/** The updates as the vendor shows them: newest first, status and time above the text rendered from its Markdown. */
export function UpdateTimeline({ updates }: { updates: readonly IncidentUpdate[] }) {
  if (updates.length === 0) return <p className="muted">The vendor posted no updates.</p>;
  const newestFirst = [...updates].reverse();
  const shown = newestFirst.slice(0, SHOWN_UPDATES);
  const older = newestFirst.slice(SHOWN_UPDATES);
  return (
    <>
      <ol className="timeline" reversed start={updates.length}>
        {shown.map((u) => (
          <TimelineEntry key={u.id} update={u} />
        ))}
      </ol>
      {older.length > 0 ? (
        <details className="timeline-older">
          <summary>{older.length === 1 ? "1 earlier update" : `${older.length} earlier updates`}</summary>
          <ol className="timeline" reversed start={older.length}>
            {older.map((u) => (
              <TimelineEntry key={u.id} update={u} />
            ))}
          </ol>
        </details>
      ) : null}
    </>
  );
}
