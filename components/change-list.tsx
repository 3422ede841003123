import Link from "next/link";
import { KindBadges } from "@/components/badges";
import { UtcTime } from "@/components/utc-time";
import type { ChangeRow } from "@/db/queries/changes";
import { excerpt } from "@/lib/format";
import { paths } from "@/lib/incident-key";

/** Changes newest first: when, vendor, incident, kinds, the one-line summary. */
export function ChangeList({ rows, now, showVendor = true }: { rows: readonly ChangeRow[]; now: Date; showVendor?: boolean }) {
  if (rows.length === 0) return <p>No changes match.</p>;
  return (
    <ol className="change-list">
      {rows.map((r) => (
        <li key={r.versionId}>
          <div className="change-meta">
            <UtcTime iso={r.observedAt} now={now} />
            {showVendor ? (
              <>
                {" · "}
                <Link href={paths.vendor(r.vendorSlug)}>{r.vendorName}</Link>
              </>
            ) : null}
          </div>
          <div className="change-title">
            <Link href={paths.version(r.vendorSlug, r.providerId, r.seq)}>{r.versionTitle || "(untitled)"}</Link> <KindBadges kinds={r.kinds} />
          </div>
          <p className="change-summary">{excerpt(r.headline || r.summary, 220)}</p>
        </li>
      ))}
    </ol>
  );
}
