import { CHANGE_KIND_INFO, type ChangeKindName } from "@/lib/change-kinds";

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

/** Impacts in words a reader uses; a value the vendor invented is shown as it came. */
const IMPACT_WORDS: Record<string, string> = { critical: "Critical", major: "Major", minor: "Minor", none: "No impact", maintenance: "Maintenance" };

export function ImpactBadge({ impact }: { impact: string | null }) {
  const key = impact ?? "unknown";
  return <span className={`impact impact-${key}`}>{impact === null ? "Impact not stated" : (IMPACT_WORDS[impact] ?? impact)}</span>;
}
