import Link from "next/link";
import { KindBadges } from "@/components/badges";
import type { VersionSummary } from "@/db/queries/incident-page";
import { changeKindLabel } from "@/lib/change-kinds";
import { excerpt, formatUtcMinute } from "@/lib/format";
import { paths } from "@/lib/incident-key";

/** "History of this incident": When (UTC) | Change | Kind, newest first, each version linked. */
export function HistoryTable({ vendorSlug, providerId, versions, current }: { vendorSlug: string; providerId: string; versions: readonly VersionSummary[]; current?: number }) {
  return (
    <div className="table-scroll">
    <table className="history">
      <caption className="visually-hidden">Every archived version of this incident, newest first</caption>
      <thead>
        <tr>
          <th scope="col">When (UTC)</th>
          <th scope="col">Change</th>
          <th scope="col">Kind</th>
        </tr>
      </thead>
      <tbody>
        {[...versions].reverse().map((v) => (
          <tr key={v.seq} aria-current={v.seq === current ? "page" : undefined}>
            <td className="nowrap">
              <time dateTime={v.observedAt}>{formatUtcMinute(v.observedAt).replace(" UTC", "")}</time>
            </td>
            <td>
              <Link href={paths.version(vendorSlug, providerId, v.seq)}>
                {v.kinds.map(changeKindLabel).join(", ") || "Other change"}
              </Link>
              {v.seq === current ? <strong> (this change)</strong> : null}
              <div className="muted small">{excerpt(v.summary, 160)}</div>
            </td>
            <td>
              <KindBadges kinds={v.kinds} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
    </div>
  );
}
