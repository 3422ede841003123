import { describe, expect, it } from "vitest";
import type { RedlineDb } from "@/db/client";
import { loadGridObservations } from "@/db/queries/grid-watch";
import { ensureVendor, type VendorRow } from "@/db/settings/vendors";
import { type CaptureRunFacts, observedWithin, watchedTimeOf, watchedTimeOfSources } from "@/lib/components/observed-time";
import { platformProfileOf } from "@/lib/platform-profiles";
import { freshDatabase, queryRows } from "@/tests/support/database";
import { component, failedSummary, recordCaptures, SUMMARY, summary } from "@/tests/support/status-captures";

const MIN = 60_000;
const INTERVAL_MS = 10 * MIN;
const T = (hhmm: string, day = "02") => `2026-03-${day}T${hhmm}:00.000Z`;
const grid = (status: string) => [component("api", status), component("web", "operational")];

/** The watched and unwatched time of [since, now], worked out from every capture run of the grid source, read here. */
async function reference(db: RedlineDb, vendor: VendorRow, since: string, now: string) {
  const rows = await queryRows<{ first: string; last: string | null; observations: number; outcome: string }>(
    db,
    `SELECT observed_at AS "first", last_observed_at AS "last", observations, outcome FROM captures WHERE vendor_id = ? AND source = ? ORDER BY observed_at`,
    vendor.id,
    SUMMARY,
  );
  const runs: CaptureRunFacts[] = rows.map((r) => ({ source: SUMMARY, first: r.first, last: r.last ?? r.first, observations: r.observations, good: r.outcome === "ok" || r.outcome === "not-modified" }));
  return observedWithin(watchedTimeOf(runs, { intervalMs: INTERVAL_MS, now: Date.parse(now) }), { from: Date.parse(since), to: Date.parse(now) });
}

/** The same, from the watches the store gives (kept between reads). */
async function fromStore(db: RedlineDb, vendor: VendorRow, since: string, now: string) {
  const { watches } = await loadGridObservations(db, vendor.id, since, { profileOf: platformProfileOf, intervalMs: INTERVAL_MS });
  return observedWithin(watchedTimeOfSources(watches, { intervalMs: INTERVAL_MS, now: Date.parse(now) }), { from: Date.parse(since), to: Date.parse(now) });
}

describe("the grid's watched time, kept between pages", () => {
  it("stays what every capture run says through unchanged polls, changes, failures, late captures and a new day", async () => {
    const db = await freshDatabase();
    const vendor = await ensureVendor(db, { slug: "acme", name: "Acme", platform: "statuspage" });
    const since = T("06:00");
    const steps: Array<[string, Parameters<typeof recordCaptures>[2]]> = [
      ["first captures", [summary(T("08:00"), grid("operational")), summary(T("08:10"), grid("operational"))]],
      ["an unchanged poll lengthens the newest run", [summary(T("08:20"), grid("operational"))]],
      ["another", [summary(T("08:30"), grid("operational"))]],
      ["a change", [summary(T("08:40"), grid("degraded_performance"))]],
      ["a failed capture", [failedSummary(T("08:50"))]],
      ["good again after a silence", [summary(T("10:00"), grid("operational")), summary(T("10:10"), grid("operational"))]],
      ["a late capture inside a run", [summary(T("08:15"), grid("major_outage"))]],
      ["a late capture in the silence", [summary(T("09:30"), grid("operational"))]],
      ["a late failure", [failedSummary(T("08:05"))]],
      ["unchanged polls again", [summary(T("10:20"), grid("operational")), summary(T("10:30"), grid("operational"))]],
    ];
    let now = T("08:10");
    for (const [what, captures] of steps) {
      await recordCaptures(db, vendor, captures);
      now = [now, ...captures.map((c) => c.at)].sort().at(-1) ?? now;
      for (const at of [now, new Date(Date.parse(now) + 5 * MIN).toISOString(), new Date(Date.parse(now) + 45 * MIN).toISOString()]) {
        // Read twice: the second read is answered from what the first kept.
        const expected = await reference(db, vendor, since, at);
        expect(await fromStore(db, vendor, since, at), `${what}, as of ${at}`).toEqual(expected);
        expect(await fromStore(db, vendor, since, at), `${what}, as of ${at}, again`).toEqual(expected);
      }
    }
    // The next day's pages start elsewhere and see the same.
    await recordCaptures(db, vendor, [summary(T("00:10", "03"), grid("operational"))]);
    for (const start of [since, T("23:00"), T("00:05", "03")]) {
      expect(await fromStore(db, vendor, start, T("00:15", "03"))).toEqual(await reference(db, vendor, start, T("00:15", "03")));
    }
  });

  it("states each grid source's last capture and last good capture", async () => {
    const db = await freshDatabase();
    const vendor = await ensureVendor(db, { slug: "acme", name: "Acme", platform: "statuspage" });
    await recordCaptures(db, vendor, [summary(T("08:00"), grid("operational")), summary(T("08:10"), grid("operational")), failedSummary(T("08:20"))]);
    const { gridSources } = await loadGridObservations(db, vendor.id, T("06:00"), { profileOf: platformProfileOf, intervalMs: INTERVAL_MS });
    expect(gridSources).toEqual([{ source: SUMMARY, platform: "statuspage-summary", lastGoodAt: T("08:10"), lastAttemptAt: T("08:20"), lastOutcome: expect.stringMatching(/failed|invalid|error/) }]);
  });
});
