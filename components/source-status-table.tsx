import { UtcTime } from "@/components/utc-time";
import type { SourceStatus } from "@/db/queries/operator-status";

/** Each source of each vendor: its last poll, its last new content, its last failure with the error. */
export function SourceStatusTable({ sources, now }: { sources: readonly SourceStatus[]; now: Date }) {
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-label="Sources of every vendor">
      <table>
        <thead>
          <tr>
            <th scope="col">Vendor</th>
            <th scope="col">Source</th>
            <th scope="col">Last polled (UTC)</th>
            <th scope="col">Last changed (UTC)</th>
            <th scope="col">Last failed (UTC)</th>
            <th scope="col">Error</th>
            <th scope="col">Observations (rows)</th>
          </tr>
        </thead>
        <tbody>
          {sources.map((s) => (
            <tr key={`${s.vendorSlug} ${s.source}`} data-vendor={s.vendorSlug} data-source={s.source}>
              <th scope="row">{s.vendorSlug}</th>
              <td data-label="Source">
                <code>{s.source}</code> <span className="muted">({s.platform})</span>
              </td>
              <td data-label="Last polled (UTC)"><UtcTime iso={s.lastPolledAt} now={now} /></td>
              <td data-label="Last changed (UTC)"><UtcTime iso={s.lastChangedAt} now={now} /></td>
              <td data-label="Last failed (UTC)">{s.lastFailedAt ? <UtcTime iso={s.lastFailedAt} now={now} /> : <span className="muted">never</span>}</td>
              <td data-label="Error">{s.lastFailure ? <code>{s.lastFailure}</code> : <span className="muted">none</span>}</td>
              <td data-label="Observations (rows)">
                {s.observations} ({s.runs})
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
