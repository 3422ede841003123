import { KindBadges } from "@/components/badges";
import type { VersionSummary } from "@/db/queries/incident-page";
import { excerptSentences, formatUtcMinute } from "@/lib/format";
import { statusPageHref } from "@/lib/components/status-links";
import { paths } from "@/lib/incident-key";

/** Past this many versions the older ones wait behind an expander that works without JavaScript. */
const SHOWN_VERSIONS = 8;

type HistoryVersion = VersionSummary & { headline?: string };

/**
 * "History of this incident": one line per version, newest first: what changed (linked to the
 * change page), its kinds as badges, when Redline observed it.
 */
export function HistoryTable({ vendorSlug, providerId, versions, current }: { vendorSlug: string; providerId: string; versions: readonly HistoryVersion[]; current?: number }) {
  const newestFirst = [...versions].reverse();
  const shown = newestFirst.slice(0, SHOWN_VERSIONS);
  const older = newestFirst.slice(SHOWN_VERSIONS);
  const line = (v: HistoryVersion) => (
    <li key={v.seq} aria-current={v.seq === current ? "page" : undefined}>
      <a href={paths.version(vendorSlug, providerId, v.seq)} className="history-change">
        {excerptSentences(v.headline || v.summary, 180)}
      </a>
      {v.seq === current ? <strong> (this change)</strong> : null}{" "}
      <KindBadges kinds={v.kinds} />{" "}
      <span className="history-when">
        version {v.seq}, observed <time dateTime={v.observedAt}>{formatUtcMinute(v.observedAt)}</time>
        {" · "}
        <a href={statusPageHref(vendorSlug, v.observedAt)}>
          see the page as it was<span className="visually-hidden"> when version {v.seq} was observed</span>
        </a>
      </span>
    </li>
  );
  return (
    <>
      <ol className="history" reversed start={versions.length}>
        {shown.map(line)}
      </ol>
      {older.length > 0 ? (
        <details className="history-older" open={older.some((v) => v.seq === current)}>
          <summary>
            {older.length === 1 ? "1 older version" : `${older.length} older versions`}
          </summary>
          <ol className="history" reversed start={older.length}>
            {older.map(line)}
          </ol>
        </details>
      ) : null}
    </>
  );
}
