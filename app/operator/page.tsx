import type { Metadata } from "next";
import { cookies } from "next/headers";
import { UtcTime } from "@/components/utc-time";
import { listThrottleTelemetry } from "@/db/hooks";
import { listVendorPollStatus } from "@/db/queries/operator-status";
import { getServerDb } from "@/db/server-db";
import { readEnv } from "@/lib/env";
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

export default async function OperatorPage({ searchParams }: Props) {
  const jar = await cookies();
  if (!isOperatorSession(jar.get(OPERATOR_COOKIE)?.value)) return <SignIn failed={(await searchParams).signin === "failed"} />;
  const db = getServerDb();
  const vendors = listVendorPollStatus(db);
  const throttles = listThrottleTelemetry(db);
  const env = readEnv();
  const limits = hookSettings(env);
  const now = new Date();
  const failing = vendors.filter((v) => v.lastOutcome !== null && v.lastOutcome !== "ok").length;
  return (
    <>
      <h1>Operator status</h1>
      <form method="post" action="/operator/sign-out">
        <button type="submit">Sign out</button>
      </form>
      <section aria-labelledby="polling-heading">
        <h2 id="polling-heading">Polling</h2>
        <p>
          {vendors.length} vendors, {failing} failing at their last poll. Failing vendors are listed first.
        </p>
        <div className="table-scroll">
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
                <th scope="col">Captures (failed)</th>
                <th scope="col">Versions</th>
              </tr>
            </thead>
            <tbody>
              {vendors.map((v) => (
                <tr key={v.slug} data-vendor={v.slug}>
                  <th scope="row">
                    {v.name} <span className="muted">({v.slug}, {v.platform}{v.enabled && v.url ? "" : ", not polled"})</span>
                  </th>
                  <td><UtcTime iso={v.lastPollAt} now={now} /></td>
                  <td className={v.lastOutcome === "ok" ? "health-ok" : v.lastOutcome ? "health-failed" : "muted"}>{v.lastOutcome ?? "never polled"}</td>
                  <td>{v.lastError ? <code>{v.lastError}</code> : <span className="muted">none</span>}</td>
                  <td>{v.consecutiveFailures}</td>
                  <td>{v.backoffSeconds > 0 ? `${v.backoffSeconds} s` : "none"}</td>
                  <td>
                    <UtcTime iso={v.nextPollAt} relative={false} />
                    {v.pushPollDueAt ? <span className="muted"> (pushed: <UtcTime iso={v.pushPollDueAt} relative={false} />)</span> : null}
                  </td>
                  <td>
                    {v.captures} ({v.failedCaptures})
                  </td>
                  <td>{v.versions}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
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
          <div className="table-scroll">
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
