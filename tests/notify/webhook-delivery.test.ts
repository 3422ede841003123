import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it } from "vitest";
import type { RedlineDb } from "@/db/client";
import { listDeliveries } from "@/db/notifications/delivery";
import { addSubscription, getSubscription } from "@/db/notifications/subscriptions";
import { ensureVendor } from "@/db/settings/vendors";
import { versionDetailSchema } from "@/lib/api/schemas";
import { readEnv } from "@/lib/env";
import { subscriptionFilterSchema } from "@/lib/notify/subscription-filter";
import { createNotifyDeps } from "@/scrapers/cli/create-notifier";
import { runDeliveryRound } from "@/notify/deliver";
import { ingestSnapshot } from "@/scrapers/ingest/ingest-snapshot";
import { freshDatabase } from "@/tests/support/database";
import { makeIncident } from "@/tests/support/incidents";
import { testClock, testNotifyDeps } from "@/tests/support/notify-deps";
import { makeTestPlatform, snapshotBody } from "@/tests/support/test-platform";
import { type Answer, startReceiver } from "@/tests/support/webhook-receiver";

const platform = makeTestPlatform({ kind: "recent", limit: 2_000 });
let receiver: Awaited<ReturnType<typeof startReceiver>> | null = null;
afterEach(async () => {
  await receiver?.close();
  receiver = null;
});

async function setUp(script: Answer[] = []) {
  receiver = await startReceiver(script);
  const db = await freshDatabase();
  const acme = await ensureVendor(db, { slug: "acme", name: "Acme Cloud", platform: platform.name });
  await ensureVendor(db, { slug: "other", name: "Other", platform: platform.name });
  const sub = async (path: string, filter: object, format: "webhook" | "slack" = "webhook") =>
    addSubscription(db, { target: `${receiver?.url ?? ""}${path}`, format, filter: subscriptionFilterSchema.parse(filter), watchlist: null, digest: null });
  let observed = Date.parse("2026-03-01T10:00:00.000Z");
  const capture = (incidents: ReturnType<typeof makeIncident>[]) => {
    observed += 60_000;
    return ingestSnapshot(db, { vendor: acme, platform, source: "incidents.json", observedAt: new Date(observed).toISOString(), body: snapshotBody(incidents), notify: true });
  };
  return { db, receiver, sub, capture, clock: testClock() };
}

/** The payload, after checking its Standard Webhooks signature as a receiver would. */
function verified(secret: string, r: { headers: Record<string, string>; body: string }): { type: string; timestamp: string; data: unknown } {
  return new Webhook(secret).verify(r.body, r.headers) as { type: string; timestamp: string; data: unknown };
}

async function attemptsOf(db: RedlineDb, id: string) {
  return (await listDeliveries(db, id)).reverse();
}

describe("webhook delivery", () => {
  it("delivers a matching change once, signed, with the change as the API gives it, and nothing to a subscription it does not match", async () => {
    const { db, receiver: r, sub, capture, clock } = await setUp();
    const mine = await sub("/mine", { vendors: ["acme"] });
    const theirs = await sub("/theirs", { vendors: ["other"] });
    await capture([makeIncident({ title: "Elevated API errors" })]);
    expect(await runDeliveryRound(testNotifyDeps(db, clock))).toMatchObject({ delivered: 1 });
    expect(await runDeliveryRound(testNotifyDeps(db, clock))).toMatchObject({ attempted: 0 });
    expect(r.received.map((x) => x.path)).toEqual(["/mine"]);
    const [got] = r.received;
    if (!got) throw new Error("nothing received");
    expect(got.headers["webhook-id"]).toMatch(/^msg_/);
    const payload = verified(mine.secret, got);
    expect(payload.type).toBe("incident.changed");
    const data = versionDetailSchema.parse(payload.data);
    expect(data).toMatchObject({ incident: { vendor: "acme", id: "inc1", title: "Elevated API errors" }, seq: 1, kinds: ["incident-new"] });
    expect(data.headline).not.toBe("");
    expect(data.links.html).toBe("http://redline.test/vendors/acme/incidents/inc1/versions/1");
    expect(() => verified(theirs.secret, got)).toThrow();
  });

  it("sends nothing to a loopback target when delivery is configured from an environment that does not allow private URLs, and says which rule refused it", async () => {
    const { db, receiver: r, sub, capture, clock } = await setUp();
    const hook = await sub("/hook", {});
    const chat = await sub("/chat", {}, "slack");
    await capture([makeIncident()]);
    const env = readEnv({ ...process.env, REDLINE_ALLOW_PRIVATE_URLS: "0", REDLINE_PUBLIC_URL: "http://redline.test" });
    expect(await runDeliveryRound(createNotifyDeps(db, env, { now: clock.now }))).toMatchObject({ attempted: 2, failed: 2, delivered: 0 });
    expect(r.received).toEqual([]);
    for (const s of [hook, chat]) {
      expect((await attemptsOf(db, s.id)).map((a) => [a.outcome, a.error])).toEqual([["failed", expect.stringMatching(/private, loopback or link-local address/)]]);
    }
  });

  it("retries a 500 with the same webhook-id, so a receiver that deduplicates records the change once", async () => {
    const { db, receiver: r, sub, capture, clock } = await setUp([{ status: 500 }]);
    const s = await sub("/hook", {});
    await capture([makeIncident()]);
    expect(await runDeliveryRound(testNotifyDeps(db, clock))).toMatchObject({ attempted: 1, retrying: 1 });
    // Not due again until its backoff has passed.
    expect(await runDeliveryRound(testNotifyDeps(db, clock))).toMatchObject({ attempted: 0 });
    clock.advance(60_000);
    expect(await runDeliveryRound(testNotifyDeps(db, clock))).toMatchObject({ delivered: 1 });
    const ids = r.received.map((x) => x.headers["webhook-id"]);
    expect(ids).toHaveLength(2);
    expect(new Set(ids).size).toBe(1);
    const recorded = new Map(r.received.map((x) => [x.headers["webhook-id"], verified(s.secret, x)]));
    expect(recorded.size).toBe(1);
    expect((await attemptsOf(db, s.id)).map((a) => [a.outcome, a.statusCode])).toEqual([["retry", 500], ["delivered", 200]]);
  });

  it("honours a 429's Retry-After: no attempt before it, one after", async () => {
    const { db, receiver: r, sub, capture, clock } = await setUp([{ status: 429, headers: { "retry-after": "120" } }]);
    const s = await sub("/hook", {});
    await capture([makeIncident()]);
    await runDeliveryRound(testNotifyDeps(db, clock));
    const due = await db.connection.prepare<[string], { at: string }>("SELECT next_attempt_at AS at FROM notification_messages WHERE subscription_id = ?").get(s.id);
    expect(Date.parse(due?.at ?? "") - clock.ms()).toBeGreaterThanOrEqual(120_000);
    clock.advance(119_000);
    expect(await runDeliveryRound(testNotifyDeps(db, clock))).toMatchObject({ attempted: 0 });
    expect(r.received).toHaveLength(1);
    clock.advance(2_000);
    expect(await runDeliveryRound(testNotifyDeps(db, clock))).toMatchObject({ delivered: 1 });
    expect(r.received).toHaveLength(2);
  });

  it("disables the subscription at once on 410 Gone, and sends it nothing more", async () => {
    const { db, receiver: r, sub, capture, clock } = await setUp([{ status: 410 }]);
    const s = await sub("/hook", {});
    await capture([makeIncident()]);
    await runDeliveryRound(testNotifyDeps(db, clock));
    expect(await getSubscription(db, s.id)).toMatchObject({ status: "disabled", disabledReason: expect.stringMatching(/410 Gone/) });
    await capture([makeIncident({ status: "identified" })]);
    clock.advance(3_600_000);
    expect(await runDeliveryRound(testNotifyDeps(db, clock))).toMatchObject({ attempted: 0, formed: 0 });
    expect(r.received).toHaveLength(1);
  });

  it("sends a burst of 1,000 changes within a minute as a bounded number of messages that carry every change exactly once", async () => {
    const { db, receiver: r, sub, capture, clock } = await setUp();
    const s = await sub("/hook", {});
    const incidents = Array.from({ length: 1_000 }, (_, i) => makeIncident({ id: `inc${i}`, title: `Outage ${i}` }));
    // Four polls within the minute, each bringing 250 new incidents.
    for (let k = 1; k <= 4; k += 1) await capture(incidents.slice(0, 250 * k));
    for (let round = 0; round < 30; round += 1) {
      await runDeliveryRound(testNotifyDeps(db, clock));
      clock.advance(61_000);
    }
    const carried: string[] = [];
    for (const x of r.received) {
      const payload = verified(s.secret, x);
      const changes = payload.type === "incident.changed.batch" ? (payload.data as { changes: unknown[] }).changes : [payload.data];
      for (const c of changes) {
        const v = versionDetailSchema.parse(c);
        carried.push(`${v.incident.id}#${v.seq}`);
      }
    }
    expect(carried).toHaveLength(1_000);
    expect(new Set(carried).size).toBe(1_000);
    expect(r.received.length).toBeLessThanOrEqual(15);
    expect(r.received.some((x) => verified(s.secret, x).type === "incident.changed.batch")).toBe(true);
  });
});
