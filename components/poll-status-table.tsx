import { UtcTime } from "@/components/utc-time";
import type { VendorPollStatus } from "@/db/queries/operator-status";

/** Each vendor's polling: its last poll and error, the backoff, what is next, and what was kept. */
export function PollStatusTable({ vendors, now }: { vendors: readonly VendorPollStatus[]; now: Date }) {
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-label="Polling of every vendor">
      <table>
        <thead>
          <tr>
            <th scope="col">Vendor</th>
            <th scope="col">Last poll (UTC)</th>
            <th scope="col">Outcome</th>
            <th scope="col">Error</th>
            <th scope="col">Failures in a row</th>
            <th scope="col">Backoff</th>
            <th scope="col">Next poll (UTC)</th>
            <th scope="col">Observations (failed, read in part)</th>
            <th scope="col">Versions</th>
          </tr>
        </thead>
        <tbody>
          {vendors.map((v) => (
            <tr key={v.slug} data-vendor={v.slug}>
              <th scope="row">
                {v.name} <span className="muted">({v.slug}, {v.platform}{v.enabled && v.url ? "" : ", not polled"})</span>
              </th>
              <td data-label="Last poll (UTC)"><UtcTime iso={v.lastPollAt} now={now} /></td>
              <td data-label="Outcome" className={v.lastOutcome === "ok" ? "health-ok" : v.lastOutcome ? "health-failed" : "muted"}>{v.lastOutcome ?? "never polled"}</td>
              <td data-label="Error">{v.lastError ? <code>{v.lastError}</code> : <span className="muted">none</span>}</td>
              <td data-label="Failures in a row">{v.consecutiveFailures}</td>
              <td data-label="Backoff">{v.backoffSeconds > 0 ? `${v.backoffSeconds} s` : "none"}</td>
              <td data-label="Next poll (UTC)">
                <UtcTime iso={v.nextPollAt} relative={false} />
                {v.pushPollDueAt ? <span className="muted"> (pushed: <UtcTime iso={v.pushPollDueAt} relative={false} />)</span> : null}
              </td>
              <td data-label="Observations (failed, read in part)">
                {v.captures} ({v.failedCaptures}, {v.capturesWithWarnings}) <span className="muted">in {v.captureRows} rows</span>
              </td>
              <td data-label="Versions">{v.versions}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
