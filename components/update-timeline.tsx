import { PostedLateNote } from "@/components/incident-timing";
import { formatUtcMinute } from "@/lib/format";
import type { IncidentUpdate, Postmortem } from "@/lib/incident";
import type { PostedLate } from "@/lib/posted-late";
import { renderVendorMarkdownAt } from "@/lib/render/vendor-markdown";
import { statusLabel } from "@/lib/labels";
import { carriesPostmortem } from "@/lib/postmortem-update";

/** Past this many updates the older ones wait behind an expander that works without JavaScript. */
const SHOWN_UPDATES = 4;

type LateUpdates = ReadonlyMap<string, PostedLate>;

function TimelineEntry({ update: u, late, postmortem }: { update: IncidentUpdate; late: PostedLate | undefined; postmortem: Postmortem | null }) {
  const at = u.displayAt ?? u.createdAt;
  return (
    <li>
      <div className="timeline-head">
        <strong>{u.status ? statusLabel(u.status) : "Update"}</strong> {at ? <time dateTime={at}>{formatUtcMinute(at)}</time> : null}
        {late ? <span className="badge badge-edit">posted late</span> : null}
      </div>
      {late ? <p className="posted-late small"><PostedLateNote late={late} what="update" /></p> : null}
      {carriesPostmortem(u, postmortem) ? (
        <p className="update-body muted">
          The vendor&apos;s postmortem, posted as an update: shown once, under <a href="#postmortem-heading">Postmortem</a>.
        </p>
      ) : (
        <div className="update-body" dangerouslySetInnerHTML={{ __html: renderVendorMarkdownAt(u.body, 3) }} />
      )}
    </li>
  );
}

/**
 * The updates as the vendor shows them: newest first, status and time above the text rendered
 * from its Markdown; an update that is the postmortem (Google Cloud's report) points to it instead.
 */
export function UpdateTimeline({ updates, late = new Map(), postmortem = null }: { updates: readonly IncidentUpdate[]; late?: LateUpdates; postmortem?: Postmortem | null }) {
  if (updates.length === 0) return <p className="muted">The vendor posted no updates.</p>;
  const newestFirst = [...updates].reverse();
  const shown = newestFirst.slice(0, SHOWN_UPDATES);
  const older = newestFirst.slice(SHOWN_UPDATES);
  return (
    <>
      <ol className="timeline" reversed start={updates.length}>
        {shown.map((u) => (
          <TimelineEntry key={u.id} update={u} late={late.get(u.id)} postmortem={postmortem} />
        ))}
      </ol>
      {older.length > 0 ? (
        <details className="timeline-older">
          <summary>{older.length === 1 ? "1 earlier update" : `${older.length} earlier updates`}</summary>
          <ol className="timeline" reversed start={older.length}>
            {older.map((u) => (
              <TimelineEntry key={u.id} update={u} late={late.get(u.id)} postmortem={postmortem} />
            ))}
          </ol>
        </details>
      ) : null}
    </>
  );
}
