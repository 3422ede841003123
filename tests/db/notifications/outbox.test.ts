import { describe, expect, it } from "vitest";
import { fanOutVersions } from "@/db/notifications/outbox";
import { addSubscription } from "@/db/notifications/subscriptions";
import { ensureVendor } from "@/db/settings/vendors";
import { saveWatchlist } from "@/db/notifications/watchlists";
import { subscriptionFilterSchema } from "@/lib/notify/subscription-filter";
import { ingestSnapshot } from "@/scrapers/ingest/ingest-snapshot";
import { importSnapshots } from "@/scrapers/ingest/import-snapshots";
import { freshDatabase } from "@/tests/support/database";
import { makeIncident } from "@/tests/support/incidents";
import { makeTestPlatform, snapshotBody } from "@/tests/support/test-platform";

const platform = makeTestPlatform({ kind: "recent", limit: 25 });
const filter = (f: object) => subscriptionFilterSchema.parse(f);

async function setUp() {
  const db = await freshDatabase();
  const acme = await ensureVendor(db, { slug: "acme", name: "Acme Cloud", platform: platform.name });
  const other = await ensureVendor(db, { slug: "other", name: "Other", platform: platform.name });
  await saveWatchlist(db, { name: "payments", vendors: [], components: ["acme:API"] });
  const all = await addSubscription(db, { target: "https://hooks.example/all", format: "webhook", filter: filter({}), watchlist: null, digest: null });
  const onlyOther = await addSubscription(db, { target: "https://hooks.example/other", format: "webhook", filter: filter({ vendors: ["other"] }), watchlist: null, digest: null });
  const watch = await addSubscription(db, { target: "https://hooks.example/watch", format: "webhook", filter: filter({}), watchlist: "payments", digest: null });
  const escalations = await addSubscription(db, { target: "https://hooks.example/esc", format: "webhook", filter: filter({ kinds: ["impact-escalated"], minImpact: "major" }), watchlist: null, digest: null });
  const outbox = async () => {
    await fanOutVersions(db);
    return db.connection.prepare<[], { id: string; incident: string; seq: number }>("SELECT subscription_id AS id, provider_id AS incident, seq FROM notifications ORDER BY id").all();
  };
  return { db, acme, other, all, onlyOther, watch, escalations, outbox };
}

describe("the outbox", () => {
  it("is written with the version it notifies of, one row per matching subscription, filters ANDed across kinds and ORed within one", async () => {
    const { db, acme, all, watch, escalations, outbox } = await setUp();
    const api = [{ id: "c1", name: "API" }];
    await ingestSnapshot(db, { vendor: acme, platform, source: "incidents.json", observedAt: "2026-03-01T10:00:00.000Z", body: snapshotBody([makeIncident({ impact: "minor", components: api })]), notify: true });
    expect((await outbox()).map((r) => r.id).sort()).toEqual([all.id, watch.id].sort());
    expect((await outbox()).every((r) => r.incident === "inc1" && r.seq === 1)).toBe(true);
    await ingestSnapshot(db, { vendor: acme, platform, source: "incidents.json", observedAt: "2026-03-01T11:00:00.000Z", body: snapshotBody([makeIncident({ impact: "major", components: api })]), notify: true });
    const second = (await outbox()).filter((r) => r.seq === 2).map((r) => r.id).sort();
    expect(second).toEqual([all.id, watch.id, escalations.id].sort());
  });

  it("is not written for an import, nor for a component outside the watchlist", async () => {
    const { db, acme, all, watch, outbox } = await setUp();
    await ingestSnapshot(db, { vendor: acme, platform, source: "incidents.json", observedAt: "2026-03-01T10:00:00.000Z", body: snapshotBody([makeIncident({ components: [{ id: "c2", name: "Dashboard" }] })]) });
    expect(await outbox()).toEqual([]);
    await ingestSnapshot(db, { vendor: acme, platform, source: "incidents.json", observedAt: "2026-03-01T11:00:00.000Z", body: snapshotBody([makeIncident({ status: "identified", components: [{ id: "c2", name: "Dashboard" }] })]), notify: true });
    expect((await outbox()).map((r) => r.id)).toEqual([all.id]);
    expect((await outbox()).map((r) => r.id)).not.toContain(watch.id);
  });

  it("is written by an import only when it is asked to notify", async () => {
    const { db, acme, all, outbox } = await setUp();
    const snapshots = (hour: number, status: string) => [
      { label: `s${hour}`, observedAt: `2026-03-01T${hour}:00:00.000Z`, source: "incidents.json", read: () => snapshotBody([makeIncident({ status })]) },
    ];
    await importSnapshots(db, acme, platform, snapshots(10, "investigating"));
    expect(await outbox()).toEqual([]);
    await importSnapshots(db, acme, platform, snapshots(11, "identified"), undefined, undefined, { notify: true });
    expect((await outbox()).filter((r) => r.id === all.id)).toEqual([{ id: all.id, incident: "inc1", seq: 2 }]);
  });

  it("is not written for what a newly added source first reports of an archived incident, nor for a subscription to every change", async () => {
    const { db, acme, all, outbox } = await setUp();
    const history = makeTestPlatform({ kind: "recent", limit: 25 }, 1, "test-history");
    const open = makeIncident();
    const toAll = async () => (await outbox()).filter((r) => r.id === all.id).map((r) => r.seq).sort((a, b) => a - b);
    await ingestSnapshot(db, { vendor: acme, platform, source: "incidents.json", observedAt: "2026-03-01T10:00:00.000Z", body: snapshotBody([open]), notify: true });
    expect(await toAll()).toEqual([1]);
    const resolved = makeIncident({ status: "resolved", resolvedAt: "2026-03-01T11:00:00.000Z" });
    await ingestSnapshot(db, { vendor: acme, platform: history, source: "history.atom", observedAt: "2026-03-14T10:00:00.000Z", body: snapshotBody([resolved]), notify: true });
    const kinds = await db.connection.prepare<[], { kinds: string }>("SELECT kinds FROM incident_versions ORDER BY seq").all();
    expect(kinds.map((k) => JSON.parse(k.kinds) as string[])).toEqual([["incident-new"], ["new-source-report"]]);
    expect(await toAll()).toEqual([1]);
    // From its second capture on, what the source says is news like any other's.
    await ingestSnapshot(db, { vendor: acme, platform: history, source: "history.atom", observedAt: "2026-03-15T10:00:00.000Z", body: snapshotBody([{ ...resolved, title: "API errors" }]), notify: true });
    expect(await toAll()).toEqual([1, 3]);
  });
});
