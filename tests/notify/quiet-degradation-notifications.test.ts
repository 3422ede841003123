import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it } from "vitest";
import type { RedlineDb } from "@/db/client";
import { queueJob } from "@/db/operations/derivation-jobs";
import { fanOutVersions } from "@/db/notifications/outbox";
import { addSubscription, type Subscription } from "@/db/notifications/subscriptions";
import { quietDegradationSchema, versionDetailSchema } from "@/lib/api/schemas";
import { subscriptionFilterSchema } from "@/lib/notify/subscription-filter";
import { runDeliveryRound } from "@/notify/deliver";
import { ingestSnapshot } from "@/scrapers/ingest/ingest-snapshot";
import { getPlatform } from "@/scrapers/platforms";
import { runPendingJobs } from "@/scrapers/rederive/job-runner";
import { countRows, freshDatabase, queryRows } from "@/tests/support/database";
import { testClock, testNotifyDeps } from "@/tests/support/notify-deps";
import { CALM_STEPS, importSteps, OPEN_INCIDENT, quietVendor, recordSteps, T } from "@/tests/support/quiet-archive";
import { startReceiver } from "@/tests/support/webhook-receiver";

let receiver: Awaited<ReturnType<typeof startReceiver>> | null = null;
afterEach(async () => {
  await receiver?.close();
  receiver = null;
});

async function setUp() {
  receiver = await startReceiver();
  const db = await freshDatabase();
  const calm = await quietVendor(db, "calm");
  const url = receiver.url;
  const sub = (path: string, filter: object) => addSubscription(db, { target: `${url}${path}`, format: "webhook", filter: subscriptionFilterSchema.parse(filter), watchlist: null, digest: null });
  return { db, calm, receiver, sub, clock: testClock() };
}

/** Delivery rounds until one sends nothing: everything due has gone out (a round sends at most five messages a subscription a minute, and the clock moves on). */
async function deliverAll(db: RedlineDb, clock: ReturnType<typeof testClock>): Promise<void> {
  for (let round = 0; round < 20; round++) {
    const result = await runDeliveryRound(testNotifyDeps(db, clock));
    clock.advance(61_000);
    if (result.attempted === 0 && result.formed === 0) return;
  }
  throw new Error("deliveries never settled");
}

function payloads(subscription: Subscription, path: string): Array<{ type: string; data: Record<string, unknown> }> {
  return (receiver?.received ?? []).filter((r) => r.path === path).map((r) => new Webhook(subscription.secret).verify(r.body, r.headers) as { type: string; data: Record<string, unknown> });
}

describe("quiet degradations notify their subscribers", () => {
  it("once each, when it starts, matched by kind, vendor, component and group; its growth and end notify no one", async () => {
    const { db, calm, sub, clock } = await setUp();
    const subscriptions = {
      all: await sub("/all", {}),
      quiet: await sub("/quiet", { kinds: ["quiet-degradation"], vendors: ["calm"] }),
      europe: await sub("/europe", { kinds: ["quiet-degradation"], groups: ["europe"] }),
      core: await sub("/core", { kinds: ["quiet-degradation"], groups: ["Core platform"] }),
      frankfurt: await sub("/frankfurt", { components: ["Frankfurt"] }),
      edits: await sub("/edits", { kinds: ["update-edited"] }),
      severe: await sub("/severe", { minImpact: "minor" }),
    };
    await recordSteps(db, calm, CALM_STEPS, { notify: true });
    await deliverAll(db, clock);
    // Messages of one subscription are sent side by side, so they may arrive in either order.
    const starts = (s: keyof typeof subscriptions) => payloads(subscriptions[s], `/${s}`).map((p) => `${p.type} ${String(p.data.from).slice(11, 16)}`).sort();
    expect(starts("all")).toEqual(["quiet-degradation.started 10:10", "quiet-degradation.started 11:00"]);
    expect(starts("quiet")).toEqual(starts("all"));
    expect(starts("europe")).toEqual(["quiet-degradation.started 11:00"]);
    expect(starts("core")).toEqual(["quiet-degradation.started 10:10"]);
    expect(starts("frankfurt")).toEqual(["quiet-degradation.started 11:00"]);
    expect(starts("edits")).toEqual([]);
    expect(starts("severe")).toEqual([]);
    // Delivered as the API lists it, as it stands when sent: this one has ended and grown since it began.
    const first = payloads(subscriptions.all, "/all").find((p) => p.data.from === T("10:10"));
    const delivered = quietDegradationSchema.parse(first?.data);
    expect(delivered).toMatchObject({ vendor: "calm", vendorName: "Calm Cloud", from: T("10:10"), until: T("10:40"), groups: ["Core platform"] });
    expect(delivered.components.map((c) => c.name)).toEqual(["DNS", "REST API"]);
    expect(delivered.links.html).toBe(`http://redline.test/vendors/calm/status?at=${T("10:10")}`);
    expect(await countRows(db, "notifications")).toBe(7);
  });

  it("notifies no one for an import, and no one again when the history is re-derived or a late capture replays it", async () => {
    const { db, calm, sub, clock } = await setUp();
    const all = await sub("/all", {});
    await importSteps(db, calm, CALM_STEPS.slice(0, 2));
    await fanOutVersions(db);
    expect(await countRows(db, "notifications")).toBe(0);
    await recordSteps(db, calm, CALM_STEPS.slice(2), { notify: true });
    await fanOutVersions(db);
    // The stretch of 10:10 began in the import; only the one that starts at 11:00 was polled.
    expect((await queryRows<{ at: string }>(db, "SELECT provider_id AS at FROM notifications")).map((r) => r.at)).toEqual([T("11:00")]);

    await queueJob(db, calm.id, "requested", null);
    await runPendingJobs(db, { vendorId: calm.id });
    // A capture older than the last applied one: recorded, then replayed by a background job with the later ones.
    const late = await recordSteps(db, calm, [{ at: T("10:05"), states: { ams: "partial_outage" } }], { notify: true });
    expect(late[0]?.pending).toBe(true);
    await runPendingJobs(db, { vendorId: calm.id });
    expect((await queryRows<{ from: string }>(db, 'SELECT from_at AS "from" FROM quiet_degradations ORDER BY from_at')).map((r) => r.from)).toEqual([T("10:05"), T("11:00")]);
    await fanOutVersions(db);
    expect(await countRows(db, "outbox_versions")).toBe(0);
    expect(await countRows(db, "notifications")).toBe(1);
    await deliverAll(db, clock);
    expect(payloads(all, "/all").map((p) => p.data.from)).toEqual([T("11:00")]);
  });

  it("leaves out a stretch another source of the same poll round ended at the instant it began, and sends the incident that ended it", async () => {
    const { db, calm, sub, clock } = await setUp();
    const all = await sub("/all", {});
    const components = getPlatform("statuspage-components");
    const incidents = getPlatform("statuspage-incidents");
    if (!components || !incidents) throw new Error("platforms missing");
    const page = { id: "p", name: "Calm", url: "https://status.calm.test" };
    const grid = (status: string) => Buffer.from(JSON.stringify({ page, components: [{ id: "api", name: "REST API", status, updated_at: T("09:00"), group_id: null, group: false }] }));
    const poll = (at: string, platform: NonNullable<typeof components>, body: Buffer) => ingestSnapshot(db, { vendor: calm, platform, source: `https://status.calm.test/${platform.name}`, observedAt: at, body, notify: true });
    await poll(T("10:00"), components, grid("operational"));
    await poll(T("10:00"), incidents, Buffer.from(JSON.stringify({ page, incidents: [] })));
    await poll(T("10:10"), components, grid("degraded_performance"));
    await poll(T("10:10"), incidents, Buffer.from(JSON.stringify({ page, incidents: [OPEN_INCIDENT] })));
    expect(await countRows(db, "quiet_degradations")).toBe(0);
    await deliverAll(db, clock);
    const got = payloads(all, "/all");
    expect(got.map((p) => p.type)).toEqual(["incident.changed"]);
    expect(versionDetailSchema.parse(got[0]?.data).incident.title).toBe("API errors");
  });
});
