import type { Metadata } from "next";
import { cookies } from "next/headers";
import { UtcTime } from "@/components/utc-time";
import { listThrottleTelemetry } from "@/db/operations/hooks";
import { type DerivationJob, listRecentJobs } from "@/db/operations/derivation-jobs";
import { OperatorPager } from "@/components/operator-pager";
import { PollStatusTable } from "@/components/poll-status-table";
import { ProblemGroups } from "@/components/problem-groups";
import { SourceStatusTable } from "@/components/source-status-table";
import { SubscriptionProblems } from "@/components/subscription-problems";
import {
  listCaptureWarnings, listProcessStatus, listRawRetention, listSourceStatus, listVendorPollStatus, type ProcessStatus,
} from "@/db/queries/operator-status";
import { listTroubledSubscriptions } from "@/db/queries/subscription-status";
import { getServerDb } from "@/db/driver/server-db";
import { listSupervisorEvents } from "@/db/operations/supervisor-events";
import { parseCatchUpClock } from "@/lib/catch-up-clock";
import { readEnv } from "@/lib/env";
import { operatorClockOf } from "@/lib/operator-clock";
import { paginate } from "@/lib/paginate";
import { groupSubscriptionProblems } from "@/lib/notify/subscription-problems";
import { groupProblems } from "@/lib/problem-groups";
import { redlineCommand } from "@/lib/redline-command";
import { hookSettings } from "@/server/hooks/hook-route";
import { isOperatorSession, OPERATOR_COOKIE } from "@/server/operator-session";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Operator status", robots: { index: false } };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

function SignIn({ failed }: { failed: boolean }) {
  const configured = Boolean(readEnv().REDLINE_OPERATOR_TOKEN);
  return (
    <>
      <h1>Operator status</h1>
      {configured ? (
        <form method="post" action="/operator/session" className="filters">
          {failed ? <p role="alert">That is not the operator token.</p> : null}
          <label>
            Operator token <input type="password" name="token" autoComplete="current-password" required minLength={16} />
          </label>{" "}
          <button type="submit">Sign in</button>
        </form>
      ) : (
        <p>Operator pages are off: set <code>REDLINE_OPERATOR_TOKEN</code> in the environment to use them.</p>
      )}
    </>
  );
}

const PROCESS_WINDOW_MS = 24 * 3_600_000;
const PAGE_SIZE = 50;

function ProcessLine({ status, now }: { status: ProcessStatus; now: Date }) {
  const times = status.restarts === 1 ? "1 time" : `${status.restarts} times`;
  return (
    <li data-process={status.process}>
      <strong>{status.process}</strong>{" "}
      {status.restarts > 0 ? (
        <>
          restarted {times} in the last 24 hours, last at <UtcTime iso={status.lastRestartAt} now={now} />
          {status.lastCrash ? <> after it exited ({status.lastCrash})</> : null}.
        </>
      ) : (
        <>
          not restarted in the last 24 hours{status.lastStartedAt ? <>; started <UtcTime iso={status.lastStartedAt} now={now} /></> : null}.
        </>
      )}
      {status.gaveUpAt ? (
        <span className="health-failed">
          {" "}
          It crashed too often: the supervisor gave up at <UtcTime iso={status.gaveUpAt} now={now} /> and stopped everything.
        </span>
      ) : null}
    </li>
  );
}

function JobTable({ jobs, now }: { jobs: readonly DerivationJob[]; now: Date }) {
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-label="Latest re-derivations">
      <table>
        <caption>Latest re-derivations, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Vendor</th>
            <th scope="col">Why</th>
            <th scope="col">State</th>
            <th scope="col">Progress</th>
            <th scope="col">Longest write hold</th>
            <th scope="col">Updated (UTC)</th>
          </tr>
        </thead>
        <tbody>
          {jobs.map((j) => (
            <tr key={j.id} data-job={j.status}>
              <th scope="row">{j.vendorSlug}</th>
              <td>{j.reason}{j.from ? <span className="muted"> (from {j.from.observedAt})</span> : null}</td>
              <td className={j.status === "failed" ? "health-failed" : j.status === "done" ? "health-ok" : undefined}>
                {j.status}
                {j.error ? <>: <code>{j.error}</code></> : null}
              </td>
              <td>
                {j.capturesDone}/{j.capturesTotal} captures{j.incidentsSwapped > 0 ? `, ${j.incidentsSwapped} incidents swapped in` : ""}
              </td>
              <td>{j.longestHoldMs} ms</td>
              <td><UtcTime iso={j.updatedAt} now={now} /></td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export default async function OperatorPage({ searchParams }: Props) {
  const jar = await cookies();
  const db = getServerDb();
  if (!(await isOperatorSession(db, jar.get(OPERATOR_COOKIE)?.value))) return <SignIn failed={(await searchParams).signin === "failed"} />;
  const vendors = await listVendorPollStatus(db);
  const throttles = await listThrottleTelemetry(db);
  const env = readEnv();
  const limits = hookSettings(env);
  const now = new Date();
  const clock = operatorClockOf(env.REDLINE_DEMO_CLOCK === undefined ? null : parseCatchUpClock(env.REDLINE_DEMO_CLOCK), now.getTime());
  const failingVendors = vendors.filter((v) => v.lastOutcome !== null && v.lastOutcome !== "ok");
  const failing = failingVendors.length;
  const problems = groupProblems(
    failingVendors.map((v) => ({ vendorSlug: v.slug, vendorName: v.name, error: v.lastError ?? v.lastOutcome ?? "", since: clock.captured(v.failingSince), lastAt: v.lastPollAt })),
  );
  const params = await searchParams;
  const shown = paginate(vendors, Number(typeof params.page === "string" ? params.page : 1), PAGE_SIZE);
  const onPage = new Set(shown.items.map((v) => v.slug));
  const processes = await listProcessStatus(db, new Date(now.getTime() - PROCESS_WINDOW_MS).toISOString());
  const events = await listSupervisorEvents(db, 20);
  const jobs = (await listRecentJobs(db, 20)).map((j) => (j.from ? { ...j, from: { ...j.from, observedAt: clock.captured(j.from.observedAt) ?? j.from.observedAt } } : j));
  const warned = (await listCaptureWarnings(db, 20)).map((c) => ({ ...c, observedAt: clock.captured(c.observedAt) ?? c.observedAt }));
  const sources = (await listSourceStatus(db)).map((x) => ({
    ...x, lastPolledAt: clock.captured(x.lastPolledAt), lastChangedAt: clock.captured(x.lastChangedAt), lastFailedAt: clock.captured(x.lastFailedAt),
  }));
  const subscriptionProblems = groupSubscriptionProblems(await listTroubledSubscriptions(db));
  const retention = (await listRawRetention(db)).map((r) => ({ ...r, keptFrom: clock.captured(r.keptFrom) }));
  return (
    <>
      <h1>Operator status</h1>
      {clock.note ? <p className="muted" data-clock-note="">{clock.note}</p> : null}
      <form method="post" action="/operator/sign-out">
        <button type="submit">Sign out</button> <button type="submit" name="scope" value="everywhere">End every operator session</button>
      </form>
      <section aria-labelledby="processes-heading">
        <h2 id="processes-heading">Processes</h2>
        {events.length === 0 ? (
          <p>
            No process events yet: <code>npm start</code> records here when it starts, restarts or gives up on the web server and the poller.
          </p>
        ) : (
          <>
            {processes.length === 0 ? <p>No process events in the last 24 hours.</p> : <ul>{processes.map((p) => <ProcessLine key={p.process} status={p} now={now} />)}</ul>}
            <div className="table-scroll" tabIndex={0} role="region" aria-label="Recent process events">
              <table>
                <caption>Recent process events, newest first</caption>
                <thead>
                  <tr>
                    <th scope="col">When (UTC)</th>
                    <th scope="col">Process</th>
                    <th scope="col">Event</th>
                    <th scope="col">Detail</th>
                  </tr>
                </thead>
                <tbody>
                  {events.map((e) => (
                    <tr key={e.id} data-event={e.event}>
                      <td><UtcTime iso={e.at} now={now} /></td>
                      <th scope="row">{e.process}</th>
                      <td className={e.event === "gave-up" ? "health-failed" : undefined}>{e.event}</td>
                      <td>{e.detail ?? <span className="muted">none</span>}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </>
        )}
      </section>
      <section aria-labelledby="polling-heading">
        <h2 id="polling-heading">Polling</h2>
        <p>
          {vendors.length} vendors, {failing} failing at their last poll, grouped below by problem. Failing vendors are listed first, {PAGE_SIZE} to a
          page; the sources below are those of the vendors on this page.
        </p>
        <h3 id="problems-heading">Problems</h3>
        <ProblemGroups groups={problems} now={now} />
        <h3 id="vendors-heading">Vendors</h3>
        <OperatorPager page={shown} noun="vendors" anchor="vendors-heading" />
        <PollStatusTable vendors={shown.items} now={now} />
        {shown.pages > 1 ? <OperatorPager page={shown} noun="vendors" anchor="vendors-heading" /> : null}
      </section>
      <section aria-labelledby="subscriptions-heading">
        <h2 id="subscriptions-heading">Subscriptions</h2>
        <p>
          Disabled subscriptions (a <code>410 Gone</code>, or a day of failures) and those failing now, grouped by problem. A disabled one
          stays so until it is removed and added again (<code>{redlineCommand("subscriptions list", env, process.cwd())}</code>).
        </p>
        <SubscriptionProblems groups={subscriptionProblems} now={now} />
      </section>
      <section aria-labelledby="sources-heading">
        <h2 id="sources-heading">Sources</h2>
        <p>
          Unchanged polls, and repeated failures with the same error, are kept as one run each: its first and last observation and how many
          there were.
        </p>
        {sources.length === 0 ? <p>No source has been polled or imported.</p> : <SourceStatusTable sources={sources.filter((x) => onPage.has(x.vendorSlug))} now={now} />}
      </section>
      <section aria-labelledby="retention-heading">
        <h2 id="retention-heading">Raw captures kept</h2>
        <p>
          {env.REDLINE_KEEP_RAW_DAYS === undefined
            ? "Raw bodies are kept forever (REDLINE_KEEP_RAW_DAYS is not set)."
            : `Raw bodies of captures last observed more than ${env.REDLINE_KEEP_RAW_DAYS} days ago are deleted by the poller once a day (REDLINE_KEEP_RAW_DAYS).`}{" "}
          The incidents and versions derived from them stay. Re-derivation covers only the captures whose raw body is kept: a rebuild of a
          vendor listed here (after a parser upgrade, or <code>rederive</code>) keeps its history up to its last deleted body as it was
          derived and derives the rest again; a capture arriving late among the deleted ones is recorded but refused (see Re-derivation).
        </p>
        {retention.length === 0 ? (
          <p>No raw body has been deleted.</p>
        ) : (
          <ul className="raw-retention">
            {retention.map((r) => (
              <li key={r.vendorSlug} data-retention={r.vendorSlug}>
                {r.name} <span className="muted">({r.vendorSlug})</span>: raw captures kept from{" "}
                {r.keptFrom === null ? "none (every raw body was deleted)" : <UtcTime iso={r.keptFrom} relative={false} />}; re-derivation covers only
                that period. {r.prunedCaptures} captures lost their raw body, last on <UtcTime iso={r.lastPrunedAt} relative={false} />.
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="rederive-heading">
        <h2 id="rederive-heading">Re-derivation</h2>
        <p>
          After a parser upgrade, for a capture that arrived after later ones, or when asked (<code>{redlineCommand("rederive --vendor …", env, process.cwd())}</code>), a
          vendor&apos;s history is rebuilt from its raw captures in the background by the poller: aside first, then swapped in incident by incident.
        </p>
        {jobs.length === 0 ? <p>No re-derivation has run.</p> : <JobTable jobs={jobs} now={now} />}
      </section>
      <section aria-labelledby="warnings-heading">
        <h2 id="warnings-heading">Captures read in part</h2>
        <p>
          A malformed element costs only itself: what could not be read is not stated by that capture, the rest is recorded. The latest such
          captures, with where in the payload and what was wrong:
        </p>
        {warned.length === 0 ? (
          <p>Every capture was read whole.</p>
        ) : (
          <ul className="capture-warnings">
            {warned.map((c) => (
              <li key={c.id} data-capture={c.id}>
                <UtcTime iso={c.observedAt} now={now} /> · {c.vendorSlug} · <code>{c.source}</code>: {c.count} {c.count === 1 ? "part" : "parts"} unread
                <ul>
                  {c.warnings.slice(0, 5).map((w, i) => (
                    <li key={i}>
                      <code>{w.path}</code>: {w.message}
                    </li>
                  ))}
                  {c.count > 5 ? <li className="muted">and {c.count - 5} more</li> : null}
                </ul>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="hooks-heading">
        <h2 id="hooks-heading">Webhook budgets</h2>
        <p>
          Per source {limits.perSource.ratePerSecond}/s, burst {limits.perSource.burst}; ceiling over all sources {limits.ceiling.ratePerSecond}/s, burst{" "}
          {limits.ceiling.burst}; bodies up to {limits.maxBodyBytes} bytes; at most one alert per scope every {env.REDLINE_ALERT_INTERVAL_SECONDS} s.
        </p>
        {throttles.length === 0 ? (
          <p>Nothing has been throttled.</p>
        ) : (
          <div className="table-scroll" tabIndex={0} role="region" aria-label="Webhook throttling by scope">
            <table>
              <thead>
                <tr>
                  <th scope="col">Scope</th>
                  <th scope="col">Throttled</th>
                  <th scope="col">Last throttled (UTC)</th>
                  <th scope="col">Last alert (UTC)</th>
                </tr>
              </thead>
              <tbody>
                {throttles.map((t) => (
                  <tr key={t.scope}>
                    <th scope="row">{t.scope}</th>
                    <td>{t.throttled}</td>
                    <td><UtcTime iso={t.lastThrottledAt} now={now} /></td>
                    <td><UtcTime iso={t.lastAlertAt} now={now} /></td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </>
  );
}
