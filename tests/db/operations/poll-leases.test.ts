import { describe, expect, it } from "vitest";
import { closeStore, openStore } from "@/db/client";
import { requestPushPoll, takeDuePushPolls } from "@/db/operations/hooks";
import { claimDueVendors, leaseHolder, nextClaimableAt, releaseLease, renewLeases, settlePoll } from "@/db/operations/poll-leases";
import { getPollState, savePollState } from "@/db/operations/poll-state";
import { addVendor } from "@/db/settings/vendors";
import { countRows, freshDatabase } from "@/tests/support/database";
import { describePostgres, withPostgresDatabase } from "@/tests/support/postgres";

const T0 = "2026-12-01T10:00:00.000Z";
const at = (seconds: number) => new Date(Date.parse(T0) + seconds * 1000).toISOString();

async function withVendors(count: number) {
  const db = await freshDatabase();
  for (let i = 0; i < count; i += 1) {
    await addVendor(db, { slug: `v${i}`, name: `V${i}`, platform: "statuspage", url: `https://status.v${i}.test/` }, "user");
  }
  return db;
}

describe("vendor leases", () => {
  it("gives each due vendor to one claimer: two pollers claiming at once split the vendors", async () => {
    const db = await withVendors(10);
    const a = await claimDueVendors(db, { owner: "a", now: T0, until: at(60), limit: 6 });
    const b = await claimDueVendors(db, { owner: "b", now: T0, until: at(60), limit: 6 });
    expect(a).toHaveLength(6);
    expect(b).toHaveLength(4);
    expect(new Set([...a, ...b].map((v) => v.slug)).size).toBe(10);
    expect(await claimDueVendors(db, { owner: "c", now: at(1), until: at(61), limit: 10 })).toEqual([]);
    expect(await leaseHolder(db, a[0]?.id ?? -1)).toEqual({ owner: "a", expiresAt: at(60) });
  });

  it("returns claimed vendors as full rows, soonest due first", async () => {
    const db = await withVendors(3);
    const [v0, v1, v2] = await claimDueVendors(db, { owner: "a", now: T0, until: at(60), limit: 3 });
    for (const v of [v0, v1, v2]) if (v) await releaseLease(db, v.id, "a");
    await savePollState(db, { vendorId: v2?.id ?? -1, nextPollAt: at(-30), lastPollAt: null, lastOutcome: null, lastError: null, consecutiveFailures: 0, backoffSeconds: 0 });
    const claimed = await claimDueVendors(db, { owner: "a", now: T0, until: at(60), limit: 1 });
    expect(claimed).toEqual([expect.objectContaining({ slug: "v2", enabled: true, url: "https://status.v2.test/", origin: "user" })]);
  });

  it("lets another poller take a vendor whose lease expired, and not before", async () => {
    const db = await withVendors(1);
    const [vendor] = await claimDueVendors(db, { owner: "dead", now: T0, until: at(30), limit: 1 });
    expect(await claimDueVendors(db, { owner: "live", now: at(29), until: at(90), limit: 1 })).toEqual([]);
    expect(await nextClaimableAt(db, "live")).toBe(at(30));
    expect(await nextClaimableAt(db, "dead")).toBe(T0);
    expect((await claimDueVendors(db, { owner: "live", now: at(30), until: at(90), limit: 1 })).map((v) => v.id)).toEqual([vendor?.id]);
    // The poller that lost it cannot give back what is no longer its own.
    expect(await releaseLease(db, vendor?.id ?? -1, "dead")).toBe(false);
    expect(await leaseHolder(db, vendor?.id ?? -1)).toMatchObject({ owner: "live" });
  });

  it("settles a poll in one write: its outcome saved, its lease given back only by the poller holding it", async () => {
    const db = await withVendors(2);
    const [lapsed, kept] = await claimDueVendors(db, { owner: "a", now: T0, until: at(30), limit: 2 });
    // Both leases lapse; another poller takes the first vendor over while "a" is still polling it.
    expect((await claimDueVendors(db, { owner: "b", now: at(30), until: at(90), limit: 1 })).map((v) => v.id)).toEqual([lapsed?.id]);
    await settlePoll(db, { vendorId: kept?.id ?? -1, nextPollAt: at(300), lastPollAt: at(5), lastOutcome: "ok", lastError: null, consecutiveFailures: 0, backoffSeconds: 0 }, "a");
    await settlePoll(db, { vendorId: lapsed?.id ?? -1, nextPollAt: at(400), lastPollAt: at(6), lastOutcome: "failed", lastError: "boom", consecutiveFailures: 1, backoffSeconds: 60 }, "a");
    expect(await leaseHolder(db, kept?.id ?? -1)).toEqual({ owner: null, expiresAt: null });
    expect(await leaseHolder(db, lapsed?.id ?? -1)).toEqual({ owner: "b", expiresAt: at(90) });
    expect(await getPollState(db, kept?.id ?? -1)).toMatchObject({ nextPollAt: at(300), lastOutcome: "ok" });
    expect(await getPollState(db, lapsed?.id ?? -1)).toMatchObject({ nextPollAt: at(400), lastOutcome: "failed", lastError: "boom", consecutiveFailures: 1 });
  });

  it("renews only the owner's unexpired leases on the vendors it names", async () => {
    const db = await withVendors(4);
    const a = await claimDueVendors(db, { owner: "a", now: T0, until: at(30), limit: 3 });
    const b = await claimDueVendors(db, { owner: "b", now: T0, until: at(30), limit: 1 });
    const ids = (vs: typeof a) => vs.map((v) => v.id);
    // a renews two of its three (the third it holds back) and tries b's: only its own two move.
    expect(await renewLeases(db, "a", [...ids(a).slice(0, 2), ...ids(b)], at(10), at(70))).toBe(2);
    expect(await renewLeases(db, "b", ids(b), at(31), at(91))).toBe(0);
    const taken = await claimDueVendors(db, { owner: "c", now: at(31), until: at(91), limit: 4 });
    expect(taken.map((v) => v.id).sort()).toEqual([ids(a)[2], ids(b)[0]].sort());
  });

  it("skips disabled vendors and vendors without a URL, and a released vendor waits for its next poll", async () => {
    const db = await withVendors(2);
    await db.connection.prepare("UPDATE vendors SET enabled = FALSE WHERE slug = 'v1'").run();
    const [v0] = await claimDueVendors(db, { owner: "a", now: T0, until: at(60), limit: 5 });
    expect(v0?.slug).toBe("v0");
    await savePollState(db, { vendorId: v0?.id ?? -1, nextPollAt: at(300), lastPollAt: T0, lastOutcome: "ok", lastError: null, consecutiveFailures: 0, backoffSeconds: 0 });
    expect(await releaseLease(db, v0?.id ?? -1, "a")).toBe(true);
    expect(await claimDueVendors(db, { owner: "b", now: at(1), until: at(61), limit: 5 })).toEqual([]);
    expect(await nextClaimableAt(db, "b")).toBe(at(300));
  });

  it("gives the claimer back its own lease on a vendor it no longer excludes, never one it excludes", async () => {
    const db = await withVendors(2);
    const [v0, v1] = await claimDueVendors(db, { owner: "a", now: T0, until: at(60), limit: 2 });
    expect(await claimDueVendors(db, { owner: "a", now: at(1), until: at(61), limit: 2, exclude: [v0?.id ?? -1, v1?.id ?? -1] })).toEqual([]);
    expect((await claimDueVendors(db, { owner: "a", now: at(1), until: at(61), limit: 2, exclude: [v0?.id ?? -1] })).map((v) => v.id)).toEqual([v1?.id]);
    expect(await nextClaimableAt(db, "a", [v0?.id ?? -1, v1?.id ?? -1])).toBeNull();
  });

  it("hands a pushed poll to a poller only while no other holds the vendor, with its lease", async () => {
    const db = await withVendors(1);
    const [vendor] = await claimDueVendors(db, { owner: "scheduled", now: T0, until: at(30), limit: 1 });
    const id = vendor?.id ?? -1;
    await requestPushPoll(db, id, Date.parse(T0), 0);
    expect(await takeDuePushPolls(db, { owner: "pushed", now: at(1), until: at(61) }, 5, [])).toEqual([]);
    expect(await countRows(db, "push_polls")).toBe(1);
    await releaseLease(db, id, "scheduled");
    expect(await takeDuePushPolls(db, { owner: "pushed", now: at(2), until: at(62) }, 5, [])).toEqual([id]);
    expect(await leaseHolder(db, id)).toEqual({ owner: "pushed", expiresAt: at(62) });
    expect(await claimDueVendors(db, { owner: "scheduled", now: at(3), until: at(63), limit: 1 })).toEqual([]);
  });

  it("claims only the vendor asked for", async () => {
    const db = await withVendors(3);
    expect((await claimDueVendors(db, { owner: "a", now: T0, until: at(60), limit: 5, slug: "v1" })).map((v) => v.slug)).toEqual(["v1"]);
  });
});

describePostgres("vendor leases on PostgreSQL", () => {
  const database = withPostgresDatabase({ prefix: "redline_leases", perTest: true });

  it("never gives one vendor to two pollers claiming at once from their own connections", async () => {
    const [one, two] = await Promise.all([openStore(database.url), openStore(database.url)]);
    try {
      for (let i = 0; i < 200; i += 1) {
        await addVendor(one, { slug: `v${i}`, name: `V${i}`, platform: "statuspage", url: `https://status.v${i}.test/` }, "user");
      }
      const claims = Array.from({ length: 60 }, (_, i) =>
        claimDueVendors(i % 2 === 0 ? one : two, { owner: `poller-${i % 6}`, now: T0, until: at(60), limit: 3 }).then((vs) => ({ owner: `poller-${i % 6}`, ids: vs.map((v) => v.id) })),
      );
      const rounds = await Promise.all(claims);
      const byOwner = new Map<string, Set<number>>();
      for (const round of rounds) {
        const held = byOwner.get(round.owner) ?? new Set<number>();
        for (const id of round.ids) held.add(id);
        byOwner.set(round.owner, held);
      }
      const taken = [...byOwner.values()].flatMap((held) => [...held]);
      expect(taken.length).toBeGreaterThan(0);
      expect(new Set(taken).size).toBe(taken.length);
      for (const [owner, held] of byOwner) {
        for (const id of held) expect((await leaseHolder(one, id))?.owner).toBe(owner);
      }
      // What the race left is there for the next claim, none of it held.
      const rest = await claimDueVendors(two, { owner: "late", now: T0, until: at(60), limit: 200 });
      expect(new Set([...taken, ...rest.map((v) => v.id)]).size).toBe(200);
    } finally {
      await Promise.all([closeStore(one), closeStore(two)]);
    }
  });

  it("hands a pushed poll to one of two pollers taking it at once", async () => {
    const [one, two] = await Promise.all([openStore(database.url), openStore(database.url)]);
    try {
      const ids: number[] = [];
      for (let i = 0; i < 20; i += 1) {
        ids.push((await addVendor(one, { slug: `p${i}`, name: `P${i}`, platform: "statuspage", url: `https://status.p${i}.test/` }, "user")).id);
      }
      for (const id of ids) await requestPushPoll(one, id, Date.parse(T0), 0);
      const takes = await Promise.all(
        Array.from({ length: 20 }, (_, i) => takeDuePushPolls(i % 2 === 0 ? one : two, { owner: `poller-${i % 2}`, now: at(1), until: at(61) }, 2, [])),
      );
      const taken = takes.flat();
      expect(new Set(taken).size).toBe(taken.length);
      expect(taken.sort((a, b) => a - b)).toEqual(ids);
    } finally {
      await Promise.all([closeStore(one), closeStore(two)]);
    }
  });
});
