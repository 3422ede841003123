import { ImpactBadge } from "@/components/badges";
import { StatusGrid } from "@/components/status-grid";
import { UtcTime } from "@/components/utc-time";
import type { UnresolvedGroup, UnresolvedIncidentRow } from "@/db/queries/vendor-now";
import type { StatusPage } from "@/lib/components/status-view";
import { statusPageHref } from "@/lib/components/status-links";
import { paths } from "@/lib/incident-key";
import { describeIncidentState, type FeedKind, unknownReason, type VendorNow, worstImpactOf } from "@/lib/vendor-now";
import { statusLabel } from "@/lib/labels";

type Now = VendorNow<UnresolvedIncidentRow>;
type NowCounted = VendorNow<UnresolvedGroup>;

const total = (groups: readonly UnresolvedGroup[]) => groups.reduce((n, g) => n + g.count, 0);

const WITHOUT_STATUS_SHOWN = 5;

/** One line for the vendor list: the state, and what it is as of. */
export function VendorNowCell({ now, at }: { now: NowCounted; at: Date }) {
  const withoutStatus = now.withoutStatus.length > 0 ? (
    <div className="muted small">{total(now.withoutStatus)} listed, no status given</div>
  ) : null;
  if (now.state === "unknown") {
    return (
      <>
        <span className="now-unknown">unknown</span>{" "}
        <span className="small">
          since <UtcTime iso={now.unknownSince} now={at} />
        </span>
        <div className="muted small">{unknownReason(now)}</div>
        {withoutStatus}
      </>
    );
  }
  const incidents = now.open.filter((i) => i.kind === "incident");
  return (
    <>
      {incidents.length === 0 ? (
        <span className="health-ok">no open incident</span>
      ) : (
        <>
          {total(incidents)} open <ImpactBadge impact={worstImpactOf(incidents)} />
        </>
      )}
      <div className="muted small">
        as of <UtcTime iso={now.asOf} now={at} />
      </div>
      {withoutStatus}
    </>
  );
}

function IncidentItem({ slug, incident, at }: { slug: string; incident: UnresolvedIncidentRow; at: Date | null }) {
  return (
    <li>
      {incident.impact === null ? null : <><ImpactBadge impact={incident.impact} />{" "}</>}<a href={paths.incident(slug, incident.providerId)}>{incident.title || "(untitled)"}</a>{" "}
      <span className="muted">
        {incident.kind === "maintenance" ? "maintenance, " : ""}
        {incident.status === null ? "posted" : `${statusLabel(incident.status)}, since`}
      </span>{" "}
      {/* Relative ages only for what is current: "since 2021 (2007 days ago)" reads as an outage still running. */}
      <UtcTime iso={incident.startedAt} now={at ?? undefined} relative={at !== null} />
    </li>
  );
}

/** The profile's "Now": the state as of the last good capture, or what was last known when that is too old. */
export function VendorNowSection({ vendorName, slug, now, grid, at, lastError }: { vendorName: string; slug: string; now: Now; grid: StatusPage; at: Date; lastError: string | null }) {
  const known = now.state !== "unknown";
  const openIncidents = now.open.filter((i) => i.kind === "incident").length;
  return (
    <section aria-labelledby="now-heading">
      <h2 id="now-heading">Now</h2>
      {now.state === "unknown" && now.asOf === null ? (
        <p>
          <span className="now-unknown">Unknown</span> since <UtcTime iso={now.unknownSince} now={at} />: Redline has never captured {vendorName}&rsquo;s status.
          {lastError ? ` The last attempt failed: ${lastError.slice(0, 300)}` : null}
        </p>
      ) : now.state === "unknown" ? (
        <p>
          <span className="now-unknown">Unknown</span> since the last good capture on <UtcTime iso={now.asOf} now={at} /> ({unknownReason(now)}{now.reason === "failing" && lastError ? `: ${lastError.slice(0, 300)}` : ""}).
          {now.open.length === 0 ? " It listed no unresolved incident." : ` It listed ${now.open.length === 1 ? "one incident" : `${now.open.length} incidents`} as unresolved:`}
        </p>
      ) : (
        <p>
          {openIncidents === 0 ? <span className="health-ok">No open incident</span> : `${openIncidents} open`}, as of the last good capture on{" "}
          <UtcTime iso={now.asOf} now={at} />.
        </p>
      )}
      {now.open.length > 0 ? (
        <ul>
          {now.open.map((i) => <IncidentItem key={i.id} slug={slug} incident={i} at={known ? at : null} />)}
        </ul>
      ) : null}
      {now.withoutStatus.length > 0 ? (
        <>
          <p className="muted">
            Listed with no status given ({now.withoutStatus.length}): the feed does not say whether these ended, so none is counted open.
          </p>
          <ul>
            {now.withoutStatus.slice(0, WITHOUT_STATUS_SHOWN).map((i) => <IncidentItem key={i.id} slug={slug} incident={i} at={null} />)}
          </ul>
        </>
      ) : null}
      {grid.groups.length > 0 ? (
        <>
          <h3>Components{grid.standing.kind === "unknown" ? " as last observed" : ""}</h3>
          <StatusGrid slug={slug} groups={grid.groups} headingLevel={4} />
        </>
      ) : null}
      <p className="small">
        <a href={statusPageHref(slug)}>See the page as it was at any moment</a>
      </p>
    </section>
  );
}

/** An incident's status as far as its feed can tell: "left the feed on …, probably resolved", "no status given". */
export function IncidentStateText({ incident, feed }: { incident: { status: string | null; resolvedAt: string | null; presence: string; lastSeenAt: string; lastChangedAt: string }; feed: FeedKind | null }) {
  const state = describeIncidentState({ ...incident, leftAt: incident.presence === "listed" ? null : incident.lastChangedAt }, feed);
  if (incident.status !== null && (state.state === "open" || state.state === "resolved")) return <>{statusLabel(incident.status)}</>;
  return <span className="muted">{state.label}</span>;
}
