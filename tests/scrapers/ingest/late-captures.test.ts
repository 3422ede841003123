import { describe, expect, it } from "vitest";
import type { RedlineDb } from "@/db/client";
import { getActiveJob } from "@/db/operations/derivation-jobs";
import { ensureVendor, type VendorRow } from "@/db/settings/vendors";
import { ingestSnapshot } from "@/scrapers/ingest/ingest-snapshot";
import { getPlatform } from "@/scrapers/platforms";
import type { Platform } from "@/scrapers/platforms/platform";
import { runPendingJobs } from "@/scrapers/rederive/job-runner";
import { freshDatabase, queryRows } from "@/tests/support/database";
import { readVersionRows } from "@/tests/support/version-rows";

const PAGE = { id: "p1", name: "Acme", url: "https://status.acme.test" };

function incident(status: string, updates: Array<[string, string, string]>, extra: Record<string, unknown> = {}) {
  return {
    id: "inc1", name: "Elevated API errors", status, impact: "minor", shortlink: "https://stspg.io/inc1",
    created_at: "2026-03-01T10:00:00.000Z", started_at: "2026-03-01T10:00:00.000Z",
    resolved_at: status === "resolved" ? "2026-03-01T11:00:00.000Z" : null,
    components: [{ id: "api", name: "API" }],
    incident_updates: updates.map(([id, s, body], i) => ({ id, status: s, body, created_at: `2026-03-01T10:${String(10 + i * 10).padStart(2, "0")}:00.000Z` })),
    ...extra,
  };
}

const first = incident("investigating", [["u1", "investigating", "Looking into errors."]]);
const second = incident("identified", [["u1", "investigating", "Looking into errors."], ["u2", "identified", "A bad deploy."]]);
const third = incident("resolved", [["u1", "investigating", "Looking into errors on the API."], ["u2", "identified", "A bad deploy."], ["u3", "resolved", "Rolled back."]]);

interface Capture {
  platform: string;
  source: string;
  observedAt: string;
  body: unknown;
}

const poll = (observedAt: string, incidents: unknown[]): Capture => ({
  platform: "statuspage-incidents", source: "https://status.acme.test/api/v2/incidents.json", observedAt, body: { page: PAGE, incidents },
});
/** A Statuspage webhook payload: the incident, no page. */
const push = (observedAt: string, body: unknown): Capture => ({ platform: "statuspage-incident", source: "webhook", observedAt, body: { incident: body } });

function platformOf(name: string): Platform {
  const platform = getPlatform(name);
  if (!platform) throw new Error(`no platform ${name}`);
  return platform;
}

async function record(db: RedlineDb, vendor: VendorRow, captures: readonly Capture[]): Promise<void> {
  for (const c of captures) {
    await ingestSnapshot(db, { vendor, platform: platformOf(c.platform), source: c.source, observedAt: c.observedAt, body: Buffer.from(JSON.stringify(c.body)) });
  }
}

async function history(db: RedlineDb): Promise<string[]> {
  return (await readVersionRows(db)).map((v) => `${v.providerId} #${v.seq} ${v.observedAt} ${JSON.stringify(v.kinds)} ${JSON.stringify(v.changes)}`);
}

async function archive(captures: readonly Capture[]): Promise<{ db: RedlineDb; vendor: VendorRow }> {
  const db = await freshDatabase();
  const vendor = await ensureVendor(db, { slug: "acme", name: "Acme", platform: "statuspage" });
  await record(db, vendor, captures);
  return { db, vendor };
}

describe("captures that arrive after later ones", () => {
  const inTimeOrder = [
    poll("2026-03-01T10:15:00.000Z", [first]),
    push("2026-03-01T10:25:00.000Z", second),
    poll("2026-03-01T10:35:00.000Z", [second]),
    push("2026-03-01T10:50:00.000Z", third),
    poll("2026-03-01T11:05:00.000Z", [third]),
  ];

  it("applies a webhook push between two polls as if recorded in time order, the push's shortlink never replacing the page URL", async () => {
    const reference = await archive(inTimeOrder);
    expect((await history(reference.db)).filter((l) => l.includes('"field":"url","kind":"changed"'))).toEqual([]);
    expect(await history(reference.db)).toHaveLength(3);
    // The web process records the push while the poller is still recording the poll fetched before it.
    const [p1, h1, p2, h2, p3] = inTimeOrder as [Capture, Capture, Capture, Capture, Capture];
    const { db, vendor } = await archive([p1, h1, h2, p2, p3]);
    expect((await getActiveJob(db, vendor.id))?.reason).toBe("late-capture");
    expect(await runPendingJobs(db)).toBe(1);
    expect(await history(db)).toEqual(await history(reference.db));
  });

  it("applies a capture older than the last applied (a clock stepped back) in order, without a manual step", async () => {
    const reference = await archive(inTimeOrder);
    const [p1, h1, p2, h2, p3] = inTimeOrder as [Capture, Capture, Capture, Capture, Capture];
    const { db, vendor } = await archive([p1, p3, h1, p2, h2]);
    expect(await getActiveJob(db, vendor.id)).toBeDefined();
    await runPendingJobs(db);
    expect(await getActiveJob(db, vendor.id)).toBeUndefined();
    expect(await history(db)).toEqual(await history(reference.db));
  });

  it("rebuilds aside when many captures follow the late one, with the same result", async () => {
    const reference = await archive(inTimeOrder);
    const [p1, h1, p2, h2, p3] = inTimeOrder as [Capture, Capture, Capture, Capture, Capture];
    const { db } = await archive([p2, h2, p3, p1, h1]);
    await runPendingJobs(db, { replayLimit: 1 });
    expect(await history(db)).toEqual(await history(reference.db));
  });
});

async function runRows(db: RedlineDb): Promise<string[]> {
  const rows = await queryRows<{ line: string }>(
    db,
    `SELECT source || ' ' || observed_at || '..' || last_observed_at || ' x' || observations AS line FROM captures ORDER BY observed_at, source, hash`,
  );
  return rows.map((r) => r.line);
}

describe("late captures and runs of unchanged snapshots", () => {
  const at = (minute: number) => `2026-03-01T10:${String(minute).padStart(2, "0")}:00.000Z`;
  const unchanged = [poll(at(15), [first]), poll(at(20), [first]), poll(at(25), [first]), poll(at(30), [first])];

  it("a late snapshot of a run's own content inside it was recorded already: nothing is added, nothing re-derived", async () => {
    const { db, vendor } = await archive(unchanged);
    const before = { runs: await runRows(db), history: await history(db) };
    expect(before.runs).toEqual([`${poll("", []).source} ${at(15)}..${at(30)} x4`]);
    await record(db, vendor, [poll(at(22), [first])]);
    expect(await runRows(db)).toEqual(before.runs);
    expect(await getActiveJob(db, vendor.id)).toBeUndefined();
    expect(await history(db)).toEqual(before.history);
  });

  it("a late snapshot of other content splits the run of its source: its first stays before, its last is applied again after", async () => {
    const { db, vendor } = await archive(unchanged);
    await record(db, vendor, [poll(at(22), [second])]);
    const source = poll("", []).source;
    expect(await runRows(db)).toEqual([`${source} ${at(15)}..${at(15)} x1`, `${source} ${at(22)}..${at(22)} x1`, `${source} ${at(30)}..${at(30)} x3`]);
    expect((await getActiveJob(db, vendor.id))?.reason).toBe("late-capture");
    await runPendingJobs(db);
    // The observations between are not kept one by one: the vendor is taken to have gone back to the run's content at its last.
    const reference = await archive([poll(at(15), [first]), poll(at(22), [second]), poll(at(30), [first])]);
    expect(await history(db)).toEqual(await history(reference.db));
  });

  it("a webhook push that lands inside a run of another source splits it, and the history is the one recorded in time order", async () => {
    const { db, vendor } = await archive([...unchanged, poll(at(35), [second])]);
    await record(db, vendor, [push(at(22), second)]);
    expect((await getActiveJob(db, vendor.id))?.reason).toBe("late-capture");
    await runPendingJobs(db);
    const reference = await archive([poll(at(15), [first]), push(at(22), second), poll(at(30), [first]), poll(at(35), [second])]);
    expect(await history(db)).toEqual(await history(reference.db));
    expect(await runRows(db)).toEqual((await runRows(reference.db)).map((line) => (line.includes(at(30)) ? line.replace("x1", "x3") : line)));
  });
});
