import { describe, expect, it } from "vitest";
import { closeStore, openStore, type RedlineDb } from "@/db/client";
import {
  claimJob, finishJob, finishJobIfUnchanged, getActiveJob, getJob, listRecentJobs, noteJobHold, queueJob, releaseJob, renewLease, saveJobProgress,
} from "@/db/operations/derivation-jobs";
import { addVendor } from "@/db/settings/vendors";
import { freshDatabase } from "@/tests/support/database";
import { describePostgres, withPostgresDatabase } from "@/tests/support/postgres";

const T0 = Date.parse("2026-12-01T10:00:00.000Z");
const key = (observedAt: string) => ({ observedAt, source: "https://status.v.test/", hash: "ab".repeat(32) });

async function vendors(db: RedlineDb, count: number, prefix = "v"): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < count; i += 1) {
    ids.push((await addVendor(db, { slug: `${prefix}${i}`, name: `V${i}`, platform: "statuspage", url: `https://status.${prefix}${i}.test/` }, "user")).id);
  }
  return ids;
}

describe("derivation jobs", () => {
  it("keeps one active job per vendor, widened to the earliest capture asked for", async () => {
    const db = await freshDatabase();
    const [id] = await vendors(db, 1);
    const first = await queueJob(db, id as number, "late-capture", key("2026-11-02T00:00:00.000Z"));
    expect(first).toMatchObject({ vendorSlug: "v0", status: "queued", requests: 1, from: key("2026-11-02T00:00:00.000Z") });
    const later = await queueJob(db, id as number, "late-capture", key("2026-11-03T00:00:00.000Z"));
    expect(later).toMatchObject({ id: first.id, requests: 2, from: key("2026-11-02T00:00:00.000Z") });
    const earlier = await queueJob(db, id as number, "late-capture", key("2026-11-01T00:00:00.000Z"));
    expect(earlier).toMatchObject({ id: first.id, requests: 3, from: key("2026-11-01T00:00:00.000Z") });
    const whole = await queueJob(db, id as number, "parser-upgrade", null);
    expect(whole).toMatchObject({ id: first.id, requests: 4, from: null, reason: "parser-upgrade" });
    expect((await getActiveJob(db, id as number))?.id).toBe(first.id);
    expect(await finishJobIfUnchanged(db, first.id, 3)).toBe(false);
    expect(await finishJobIfUnchanged(db, first.id, 4)).toBe(true);
    expect(await getActiveJob(db, id as number)).toBeUndefined();
    const next = await queueJob(db, id as number, "requested", null);
    expect(next.id).not.toBe(first.id);
    expect((await listRecentJobs(db)).map((j) => j.id)).toEqual([next.id, first.id]);
  });

  it("leases a job to one worker until it lapses, is released, or is finished", async () => {
    const db = await freshDatabase();
    const [a, b] = await vendors(db, 2);
    const jobA = await queueJob(db, a as number, "requested", null);
    const jobB = await queueJob(db, b as number, "requested", null);
    expect((await claimJob(db, "one", 60_000, undefined, T0))?.id).toBe(jobA.id);
    expect((await claimJob(db, "two", 60_000, undefined, T0))?.id).toBe(jobB.id);
    expect(await claimJob(db, "three", 60_000, undefined, T0 + 1_000)).toBeUndefined();
    // Its own job again, and only the vendor asked for.
    expect((await claimJob(db, "one", 60_000, a, T0 + 1_000))?.id).toBe(jobA.id);
    expect(await claimJob(db, "one", 60_000, b, T0 + 1_000)).toBeUndefined();
    expect(await renewLease(db, jobA.id, "one", 60_000, T0 + 30_000)).toBe(true);
    expect(await renewLease(db, jobB.id, "one", 60_000, T0 + 30_000)).toBe(false);
    // B's lease lapses at T0 + 60 s: another worker takes it over, and its first holder can no longer renew.
    expect((await claimJob(db, "three", 60_000, undefined, T0 + 61_000))?.id).toBe(jobB.id);
    expect(await renewLease(db, jobB.id, "two", 60_000, T0 + 62_000)).toBe(false);
    await releaseJob(db, jobA.id, "one");
    expect((await getJob(db, jobA.id))?.leaseOwner).toBeNull();
    expect((await claimJob(db, "four", 60_000, undefined, T0 + 62_000))?.id).toBe(jobA.id);
    await saveJobProgress(db, { id: jobA.id, status: "building", scratchPath: "/tmp/x.db", capturesTotal: 10, capturesDone: 4, incidentsSwapped: 0, longestHoldMs: 12 });
    await noteJobHold(db, jobA.id, 7.4);
    await saveJobProgress(db, { id: jobA.id, status: "swapping", scratchPath: "/tmp/x.db", capturesTotal: 10, capturesDone: 10, incidentsSwapped: 3, longestHoldMs: 5 });
    expect(await getJob(db, jobA.id)).toMatchObject({ status: "swapping", scratchPath: "/tmp/x.db", capturesDone: 10, incidentsSwapped: 3, longestHoldMs: 12, leaseOwner: "four" });
    await noteJobHold(db, jobA.id, 40);
    await finishJob(db, jobA.id, "failed", "boom");
    expect(await getJob(db, jobA.id)).toMatchObject({ status: "failed", error: "boom", longestHoldMs: 40, leaseOwner: null, leaseUntil: null });
    expect(await claimJob(db, "four", 60_000, undefined, T0 + 200_000)).toMatchObject({ id: jobB.id });
  });
});

describePostgres("derivation jobs on PostgreSQL", () => {
  const database = withPostgresDatabase({ prefix: "redline_jobs", perTest: true });

  it("gives each job to one of several runners claiming at once from their own connections", async () => {
    const [one, two] = await Promise.all([openStore(database.url), openStore(database.url)]);
    try {
      const ids = await vendors(one, 40);
      const queued = new Set<number>();
      for (const id of ids) queued.add((await queueJob(one, id, "parser-upgrade", null)).id);
      // Six runners, three per connection, each claiming and finishing jobs until none is left, as runPendingJobs does.
      const ran = new Map<string, number[]>();
      const runner = async (db: RedlineDb, owner: string) => {
        const mine: number[] = [];
        ran.set(owner, mine);
        for (;;) {
          const job = await claimJob(db, owner, 60_000);
          if (!job) return;
          expect(job.leaseOwner).toBe(owner);
          mine.push(job.id);
          await new Promise((resolve) => setImmediate(resolve));
          await finishJob(db, job.id, "done");
        }
      };
      await Promise.all(Array.from({ length: 6 }, (_, i) => runner(i % 2 === 0 ? one : two, `runner-${i}`)));
      const claimed = [...ran.values()].flat();
      expect(claimed.length).toBe(queued.size);
      expect(new Set(claimed)).toEqual(queued);
      expect([...ran.values()].filter((jobs) => jobs.length > 0).length).toBeGreaterThan(1);
      expect((await listRecentJobs(one, 100)).every((j) => j.status === "done")).toBe(true);
    } finally {
      await Promise.all([closeStore(one), closeStore(two)]);
    }
  });

  it("gives a job claimed at once by many runners to one of them", async () => {
    const [one, two] = await Promise.all([openStore(database.url), openStore(database.url)]);
    try {
      const [id] = await vendors(one, 1, "w");
      const job = await queueJob(one, id as number, "requested", null);
      const claims = await Promise.all(Array.from({ length: 12 }, (_, i) => claimJob(i % 2 === 0 ? one : two, `runner-${i}`, 60_000)));
      const winners = claims.filter((c) => c !== undefined);
      expect(winners).toHaveLength(1);
      expect((await getJob(one, job.id))?.leaseOwner).toBe(winners[0]?.leaseOwner);
    } finally {
      await Promise.all([closeStore(one), closeStore(two)]);
    }
  });
});
