import { UtcTime } from "@/components/utc-time";
import type { IncidentTiming } from "@/db/queries/incident-route";
import type { AcknowledgmentLag } from "@/lib/components/acknowledgment-lag";
import type { ComponentStatus } from "@/lib/components/component-status";
import { formatDuration } from "@/lib/format";
import { paths } from "@/lib/incident-key";
import type { PostedLate } from "@/lib/posted-late";

const MINUTE_MS = 60_000;

/** "degraded", "in a partial outage": a state as it reads after "was". */
function asState(status: ComponentStatus): string {
  if (status === "partial-outage") return "in a partial outage";
  if (status === "major-outage") return "in a major outage";
  return status;
}

/** "posted at least 12 min after the time it gives", with the capture that bounds it. */
export function PostedLateNote({ late, what }: { late: PostedLate; what: "incident" | "update" }) {
  return (
    <>
      Posted at least {formatDuration(late.atLeastMs)} after the time it gives: {what === "incident" ? "it gives" : "it shows"} <UtcTime iso={late.givenAt} relative={false} />
      {what === "incident" ? " as its start" : ""}, but its source&apos;s capture at <UtcTime iso={late.boundAt} relative={false} /> did not show it (first seen <UtcTime iso={late.firstSeenAt} relative={false} />).
    </>
  );
}

function StartedComparison({ lag }: { lag: AcknowledgmentLag }) {
  if (lag.startedAt === null || lag.beforeStatedStartMs === null) return <> The vendor states no start.</>;
  const ms = lag.beforeStatedStartMs;
  const relation =
    Math.abs(ms) < MINUTE_MS
      ? `, the time ${lag.componentName} was first seen ${asState(lag.status)}`
      : ms > 0
        ? `, ${formatDuration(ms)} after ${lag.componentName} was first seen ${asState(lag.status)}`
        : `, ${formatDuration(-ms)} before Redline first saw ${lag.componentName} ${asState(lag.status)}`;
  return (
    <>
      {" "}The vendor gives <UtcTime iso={lag.startedAt} relative={false} /> as its start{relation}.
    </>
  );
}

function LagSentence({ lag, vendorSlug }: { lag: AcknowledgmentLag; vendorSlug: string }) {
  const name = <a href={paths.component(vendorSlug, lag.componentId)}>{lag.componentName}</a>;
  if (lag.beforeSightingMs < MINUTE_MS) {
    return (
      <>
        {name} was first seen {asState(lag.status)} in the same capture that first showed this incident (<UtcTime iso={lag.firstSeenAt} relative={false} />).
      </>
    );
  }
  return (
    <>
      {name} was {asState(lag.status)} {formatDuration(lag.beforeSightingMs)} before this incident was posted{" "}
      <span className="muted">(as Redline observed it: {lag.componentName} from <UtcTime iso={lag.degradedFrom} relative={false} />, this incident first seen <UtcTime iso={lag.firstSeenAt} relative={false} />)</span>.
    </>
  );
}

/** What the archive says of when the incident was posted: its components seen degraded before, and whether it was posted late. */
export function IncidentTimingSection({ timing, vendorSlug }: { timing: IncidentTiming; vendorSlug: string }) {
  const { lag, postedLate } = timing;
  if (!lag && !postedLate.incident && postedLate.updates.length === 0) return null;
  return (
    <section aria-labelledby="timing-heading" className="incident-timing">
      <h2 id="timing-heading">When it was posted</h2>
      <ul>
        {lag ? (
          <li>
            <LagSentence lag={lag} vendorSlug={vendorSlug} />
            <StartedComparison lag={lag} />
          </li>
        ) : null}
        {postedLate.incident ? (
          <li>
            <strong>Posted late.</strong> <PostedLateNote late={postedLate.incident} what="incident" />
          </li>
        ) : null}
        {postedLate.updates.length > 0 ? (
          <li>
            {postedLate.updates.length === 1 ? "1 update was" : `${postedLate.updates.length} updates were`} posted late: marked in the timeline below.
          </li>
        ) : null}
      </ul>
    </section>
  );
}
