import { ImpactBadge, KindBadges } from "@/components/badges";
import { UtcTime } from "@/components/utc-time";
import type { ChangeRow } from "@/db/queries/changes";
import { excerptSentences } from "@/lib/format";
import { paths } from "@/lib/incident-key";
import { openStateOf } from "@/lib/quiet-edits";

/** Changes newest first: incident, impact then, open or resolved now, kinds, vendor, when observed, the summary. */
export function ChangeList({ rows, now, showVendor = true }: { rows: readonly ChangeRow[]; now: Date; showVendor?: boolean }) {
  if (rows.length === 0) return <p>No changes match.</p>;
  return (
    <ol className="change-list">
      {rows.map((r) => {
        const state = openStateOf(r.status);
        return (
          <li key={r.versionId}>
            <div className="change-title">
              <a href={paths.version(r.vendorSlug, r.providerId, r.seq)}>{r.versionTitle || "(untitled)"}</a> <KindBadges kinds={r.kinds} />
            </div>
            <div className="change-meta">
              <ImpactBadge impact={r.versionImpact} />{" "}
              {state ? <span className={`open-state open-state-${state}`}>{state === "open" ? "Open" : "Resolved"}</span> : <span className="open-state">Status not stated</span>}
              {showVendor ? (
                <>
                  {" · "}
                  <a href={paths.vendor(r.vendorSlug)}>{r.vendorName}</a>
                </>
              ) : null}
              {" · observed "}
              <UtcTime iso={r.observedAt} now={now} />
            </div>
            <p className="change-summary">{excerptSentences(r.headline || r.summary, 220)}</p>
          </li>
        );
      })}
    </ol>
  );
}
