import { VendorText } from "@/components/text-diff";
import { formatUtcMinute } from "@/lib/format";
import type { IncidentUpdate } from "@/lib/incident";

/** The updates as the vendor shows them: newest first, status and time above the text. */
export function UpdateTimeline({ updates }: { updates: readonly IncidentUpdate[] }) {
  if (updates.length === 0) return <p className="muted">The vendor posted no updates.</p>;
  return (
    <ol className="timeline" reversed>
      {[...updates].reverse().map((u) => (
        <li key={u.id}>
          <div className="timeline-head">
            <strong>{u.status ? u.status.replace(/_/g, " ") : "update"}</strong>{" "}
            {u.displayAt ?? u.createdAt ? <time dateTime={u.displayAt ?? u.createdAt ?? undefined}>{formatUtcMinute(u.displayAt ?? u.createdAt)}</time> : null}
          </div>
          <VendorText text={u.body} />
        </li>
      ))}
    </ol>
  );
}
