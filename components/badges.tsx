import { CHANGE_KIND_INFO, type ChangeKindName } from "@/lib/change-kinds";
import { impactLabel } from "@/lib/labels";

/** Kinds that rewrite what was said, shown in the warning colour. */
const EDITS = new Set<ChangeKindName>([
  "incident-deleted", "impact-downgraded", "update-edited", "update-removed", "update-backdated", "timing-changed", "postmortem-edited", "title-changed",
]);

export function KindBadges({ kinds }: { kinds: readonly ChangeKindName[] }) {
  if (kinds.length === 0) return <span className="badge">Other change</span>;
  return (
    <span className="badges">
      {kinds.map((k) => (
        <span key={k} className={`badge${EDITS.has(k) ? " badge-edit" : ""}`} title={CHANGE_KIND_INFO[k].description}>
          {CHANGE_KIND_INFO[k].label}
        </span>
      ))}
    </span>
  );
}

export function ImpactBadge({ impact }: { impact: string | null }) {
  return <span className={`impact impact-${impact ?? "unknown"}`}>{impactLabel(impact)}</span>;
}
