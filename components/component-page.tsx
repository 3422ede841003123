import { ImpactBadge } from "@/components/badges";
import { UtcTime } from "@/components/utc-time";
import { unknownReason } from "@/lib/vendor-now";
import type { ComponentPage } from "@/lib/components/component-page";
import { STRIP_DAYS } from "@/lib/components/component-page";
import { type ComponentStatus, componentStatusLabel } from "@/lib/components/component-status";
import type { DayCell } from "@/lib/components/day-strip";
import type { ObservedState } from "@/lib/components/state-shares";
import { formatDuration } from "@/lib/format";
import { paths } from "@/lib/incident-key";
import { statusPageHref } from "@/lib/components/status-links";
import { statusLabel } from "@/lib/labels";

function stateLabel(state: ObservedState | "not-observed"): string {
  if (state === "not-listed") return "Not listed by the vendor";
  if (state === "not-observed") return "Not observed";
  return componentStatusLabel(state);
}

/** A state as a badge: its words always, its colour only beside them. */
export function ComponentStateBadge({ state, inferred = false }: { state: ObservedState | "not-observed"; inferred?: boolean }) {
  return (
    <span className={`state state-${state}`}>
      {stateLabel(state)}
      {inferred ? " (inferred)" : ""}
    </span>
  );
}

function percent(share: number | null): string {
  if (share === null) return "—";
  const p = share * 100;
  return p > 0 && p < 0.1 ? "under 0.1%" : `${p < 10 ? p.toFixed(1) : Math.round(p)}%`;
}

function cellText(cell: DayCell): string {
  const watched = cell.state === "not-observed" ? "" : `; watched ${formatDuration(cell.observedMs)} of ${formatDuration(cell.dayMs)}`;
  const worst = cell.state === "not-observed" || cell.state === "not-listed" ? "" : " (worst observed)";
  return `${cell.day}: ${stateLabel(cell.state)}${cell.inferred ? " (inferred)" : ""}${worst}${watched}`;
}

function DayStrip({ strip, name }: { strip: readonly DayCell[]; name: string }) {
  const observed = strip.filter((c) => c.state !== "not-observed").length;
  const legend: Array<ObservedState | "not-observed"> = ["operational", "maintenance", "degraded", "partial-outage", "major-outage", "unknown", "not-listed", "not-observed"];
  return (
    <section aria-labelledby="strip-heading">
      <h2 id="strip-heading">Last {STRIP_DAYS} days</h2>
      <p className="muted small">
        Each day coloured by the worst state Redline observed that day, oldest first; a day it did not watch the page at all is not observed, never operational. Observed on {observed} of {strip.length} days.
      </p>
      <ol className="day-strip" aria-label={`${name}, the last ${STRIP_DAYS} days, oldest first`}>
        {strip.map((cell) => {
          const text = cellText(cell);
          return (
            <li key={cell.day} className={`day state-${cell.state}${cell.inferred ? " day-inferred" : ""}`} title={text}>
              <span className="visually-hidden">{text}</span>
            </li>
          );
        })}
      </ol>
      <p className="day-strip-ends small muted" aria-hidden="true">
        <span>{strip[0]?.day}</span>
        <span>{strip.at(-1)?.day}</span>
      </p>
      <ul className="state-legend small" aria-label="Colours">
        {legend.map((s) => (
          <li key={s}>
            <span className={`day state-${s}`} aria-hidden="true" /> {stateLabel(s)}
          </li>
        ))}
      </ul>
    </section>
  );
}

function NowFact({ page, now }: { page: ComponentPage; now: Date }) {
  const n = page.now;
  if (n.state === "current") {
    return (
      <>
        <ComponentStateBadge state={n.run.status} inferred={n.run.inferred} />{" "}
        <span className="small">since <UtcTime iso={n.run.since} now={now} /></span>
        <div className="muted small">as of <UtcTime iso={n.asOf} now={now} /></div>
      </>
    );
  }
  if (n.state === "not-listed") {
    return (
      <>
        <ComponentStateBadge state="not-listed" />{" "}
        <span className="small">since <UtcTime iso={n.since} now={now} /></span>
        <div className="muted small">as of <UtcTime iso={n.asOf} now={now} /></div>
      </>
    );
  }
  return (
    <>
      <span className="now-unknown">unknown</span>{" "}
      <span className="small">{n.asOf ? <>since <UtcTime iso={n.asOf} now={now} /></> : "never observed"}</span>
      <div className="muted small">{unknownReason(n)}</div>
      {n.last ? (
        <div className="small">
          {n.lastUntil ? "Last listed as " : "Last observed: "}
          <ComponentStateBadge state={n.last.status} inferred={n.last.inferred} />
          {n.lastUntil ? <> until <UtcTime iso={n.lastUntil} relative={false} /></> : null}
        </div>
      ) : null}
    </>
  );
}

function PeriodForm({ page }: { page: ComponentPage }) {
  return (
    <form className="filters" method="get" aria-label="Period">
      <label>
        Last{" "}
        <select name="days" defaultValue={page.period.days === null ? "" : String(page.period.days)}>
          <option value="">(dates below)</option>
          {[30, 90, 365].map((d) => <option key={d} value={d}>{d} days</option>)}
        </select>
      </label>{" "}
      <label>Since <input type="date" name="since" defaultValue={page.period.dates?.since ?? ""} /></label>{" "}
      <label>Until <input type="date" name="until" defaultValue={page.period.dates?.until ?? ""} /></label>{" "}
      <button type="submit">Show</button>
    </form>
  );
}

function Shares({ page }: { page: ComponentPage }) {
  const s = page.shares;
  const unobserved = s.unobservedMs.failed + s.unobservedMs.gap;
  return (
    <section aria-labelledby="shares-heading">
      <h2 id="shares-heading">Time in each state, {page.period.label}</h2>
      <PeriodForm page={page} />
      <p>
        Redline watched the grid for {formatDuration(s.observedMs)} of {formatDuration(s.periodMs)}
        {s.periodMs > 0 ? ` (${percent(s.observedMs / s.periodMs)})` : ""}. The shares below are of that time.
      </p>
      {s.byState.length === 0 ? (
        <p className="muted">Nothing observed of {page.name} in this period.</p>
      ) : (
        <div className="table-scroll">
          <table>
            <caption className="visually-hidden">Time {page.name} spent in each state, {page.period.label}, of the time observed</caption>
            <thead>
              <tr>
                <th scope="col">State</th>
                <th scope="col" className="number">Time</th>
                <th scope="col" className="number">Share</th>
              </tr>
            </thead>
            <tbody>
              {s.byState.map((row) => (
                <tr key={row.state}>
                  <th scope="row"><ComponentStateBadge state={row.state} /></th>
                  <td className="number" data-label="Time">{formatDuration(row.ms)}</td>
                  <td className="number" data-label="Share">{percent(row.share)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p className="not-observed-time">
        <ComponentStateBadge state="not-observed" /> {formatDuration(unobserved)}
        {s.periodMs > 0 ? ` (${percent(unobserved / s.periodMs)} of the period)` : ""}, counted as no state at all:{" "}
        {formatDuration(s.unobservedMs.gap)} of polling gaps (no good capture for over three poll intervals) and {formatDuration(s.unobservedMs.failed)} around failed captures.
      </p>
      {s.inferredMs > 0 ? <p className="muted small">{formatDuration(s.inferredMs)} of the observed time rests on states inferred from the vendor&apos;s open incidents.</p> : null}
    </section>
  );
}

function Timeline({ page, now }: { page: ComponentPage; now: Date }) {
  const current = page.now.state !== "unknown";
  return (
    <section aria-labelledby="timeline-heading">
      <h2 id="timeline-heading">State timeline, {page.period.label}</h2>
      {page.timeline.length === 0 ? (
        <p className="muted">No state of {page.name} was observed in this period.</p>
      ) : (
        <div className="table-scroll">
          <table>
            <caption className="visually-hidden">Each state of {page.name}, newest first</caption>
            <thead>
              <tr>
                <th scope="col">State</th>
                <th scope="col">Vendor&apos;s word</th>
                <th scope="col">From (UTC)</th>
                <th scope="col">Until (UTC)</th>
                <th scope="col">Duration</th>
              </tr>
            </thead>
            <tbody>
              {page.timeline.map((e) => (
                <tr key={`${e.kind} ${e.from}`}>
                  <td data-label="State">
                    {e.kind === "state" ? <ComponentStateBadge state={e.status} inferred={e.inferred} /> : <ComponentStateBadge state="not-listed" />}
                    {e.kind === "state" && e.renamed ? <div className="muted small">listed as {e.name}</div> : null}
                  </td>
                  <td data-label="Vendor's word">{e.kind === "state" ? <code>{e.vendorStatus}</code> : <span className="muted">—</span>}</td>
                  <td className="nowrap" data-label="From (UTC)">
                    <a href={statusPageHref(page.facts.vendor.slug, e.from)} title="See the page as it was then"><UtcTime iso={e.from} relative={false} /></a>
                  </td>
                  <td data-label="Until (UTC)">
                    {e.until ? <UtcTime iso={e.until} relative={false} /> : current ? <span className="muted">now</span> : <span className="muted">not known after <UtcTime iso={page.now.asOf} relative={false} /></span>}
                  </td>
                  <td data-label="Duration">
                    {e.until !== null || current ? formatDuration(e.durationMs) : e.durationMs >= 60_000 ? `at least ${formatDuration(e.durationMs)}` : <span className="muted">not known</span>}
                    {e.until === null && current ? <span className="muted"> so far</span> : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {page.timelineCut > 0 ? <p className="muted small">{page.timelineCut} older entries of this period are not listed; the time in each state above counts them.</p> : null}
      <p className="muted small">
        From is when Redline first observed the state (the capture before bounds when it happened), linked to the whole page as it was then; until, the first capture showing another state or no longer listing {page.name}.{" "}
        {page.facts.component.firstListedAt ? <>First listed <UtcTime iso={page.facts.component.firstListedAt} now={now} />; {page.facts.component.runCount} {page.facts.component.runCount === 1 ? "state" : "states"} recorded in all.</> : null}
      </p>
    </section>
  );
}

function Members({ page }: { page: ComponentPage }) {
  if (!page.isGroup) return null;
  const slug = page.facts.vendor.slug;
  return (
    <section aria-labelledby="members-heading">
      <h2 id="members-heading">Components in this group</h2>
      {page.facts.members.length === 0 ? (
        <p className="muted">The vendor lists no component in it now.</p>
      ) : (
        <ul className="member-list">
          {page.facts.members.map((m) => (
            <li key={m.key}>
              <a href={paths.component(slug, m.key)}>{m.name}</a> <ComponentStateBadge state={m.status as ComponentStatus} inferred={m.inferred} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function Incidents({ page }: { page: ComponentPage }) {
  const { slug } = page.facts.vendor;
  return (
    <section aria-labelledby="named-heading">
      <h2 id="named-heading">Incidents that named it, {page.period.label}</h2>
      {page.facts.incidents.length === 0 ? (
        <p className="muted">No incident of this period names {page.name} (as each incident names its components now).</p>
      ) : (
        <div className="table-scroll">
          <table>
            <caption className="visually-hidden">Incidents naming {page.name}, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Started (UTC)</th>
                <th scope="col">Incident</th>
                <th scope="col">Impact</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {page.facts.incidents.map((i) => (
                <tr key={i.providerId}>
                  <td className="nowrap" data-label="Started (UTC)"><UtcTime iso={i.startedAt ?? i.firstSeenAt} relative={false} /></td>
                  <td data-label="Incident">
                    <a href={paths.incident(slug, i.providerId)}>{i.title || "(untitled)"}</a>
                    {i.kind === "maintenance" ? <span className="muted small"> maintenance</span> : null}
                  </td>
                  <td data-label="Impact"><ImpactBadge impact={i.impact} /></td>
                  <td data-label="Status">{i.status ? statusLabel(i.status) : <span className="muted">not stated</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {page.facts.moreIncidents ? <p className="muted small">Only the {page.facts.incidents.length} latest are listed.</p> : null}
    </section>
  );
}

/** The component page's title (before " · Redline"). */
export function componentPageTitle(page: ComponentPage): string {
  return `${page.facts.vendor.name}: ${page.name}`;
}

/**
 * A component's page: its state now by the honest rules, the strip of the last days, the time in
 * each state over a period, its timeline and the incidents that named it. Holds no Next-only element.
 */
export function ComponentPageBody({ page, now }: { page: ComponentPage; now: Date }) {
  const { vendor } = page.facts;
  const group = page.facts.last?.groupId ?? null;
  return (
    <>
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <a href="/vendors">Vendors</a> / <a href={paths.vendor(vendor.slug)}>{vendor.name}</a> / {page.name}
      </nav>
      <h1>{page.name}</h1>
      <p className="muted">
        {page.isGroup ? "A group of components" : "A component"} of <a href={paths.vendor(vendor.slug)}>{vendor.name}</a>&apos;s status page
        {page.knowledge === "inferred" ? ", named only inside incidents: its states are inferred from the vendor's open incidents" : ""}.
      </p>
      <dl className="facts">
        <div className="fact-now"><dt>Now</dt><dd><NowFact page={page} now={now} /></dd></div>
        <div><dt>Group</dt><dd>{group === null ? <span className="muted">none</span> : <a href={paths.component(vendor.slug, group)}>{page.facts.groupName ?? group}</a>}</dd></div>
        <div><dt>Vendor&apos;s word</dt><dd>{page.facts.last ? <code>{page.facts.last.vendorStatus}</code> : <span className="muted">none</span>}</dd></div>
        <div><dt>Key</dt><dd><code>{page.facts.component.key}</code></dd></div>
      </dl>
      <DayStrip strip={page.strip} name={page.name} />
      <Shares page={page} />
      <Timeline page={page} now={now} />
      <Members page={page} />
      <Incidents page={page} />
      <p className="links">
        <a href={paths.vendor(vendor.slug)}>{vendor.name} profile</a>
      </p>
    </>
  );
}
