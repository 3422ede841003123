import type { VersionSummary } from "@/db/queries/incident-page";
import { formatUtcMinute } from "@/lib/format";

/** Pick any two versions of the incident to compare; a plain GET form. */
export function CompareForm({ action, versions, from, to }: { action: string; versions: readonly VersionSummary[]; from: number; to: number }) {
  if (versions.length < 2) return null;
  const option = (v: VersionSummary) => (
    <option key={v.seq} value={v.seq}>
      #{v.seq}, {formatUtcMinute(v.observedAt)}
    </option>
  );
  return (
    <form className="filters" method="get" action={action} aria-label="Compare two versions">
      <label>Compare version <select name="from" defaultValue={String(from)}>{versions.map(option)}</select></label>{" "}
      <label>with <select name="to" defaultValue={String(to)}>{versions.map(option)}</select></label>{" "}
      <button type="submit">Compare</button>
    </form>
  );
}
