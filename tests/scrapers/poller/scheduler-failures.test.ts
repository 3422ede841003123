import { describe, expect, it } from "vitest";
import { openDatabase, type RedlineDb } from "@/db/client";
import { addVendor, getVendorBySlug } from "@/db/settings/vendors";
import { type HttpClient, HttpError } from "@/scrapers/http/http-client";
import { HostGate } from "@/scrapers/http/polite-fetch";
import type { PollDeps } from "@/scrapers/poller/poll-vendor";
import { Scheduler, type SchedulerOptions } from "@/scrapers/poller/scheduler";
import { testDatabaseDialect } from "@/tests/support/test-database-settings";

/** SQLite's triggers and renames make the faults: the scheduler under test is the same on either database. */
const freshDatabase = async (): Promise<RedlineDb> => openDatabase(":memory:");

/** A network where nothing answers; it notes when each URL was asked for. */
function offlineClient(requests: Array<{ url: string; at: number }>): HttpClient {
  return {
    async get(url) {
      requests.push({ url, at: Date.now() });
      throw new HttpError("connect", `connect ECONNREFUSED for ${url}`, { transient: false });
    },
  };
}

function depsFor(db: RedlineDb, client: HttpClient): PollDeps {
  return { db, client, gate: new HostGate(0), retry: { attempts: 1, baseDelayMs: 1, maxDelayMs: 1, maxRetryAfterMs: 0 }, followUpIntervalMs: 0 };
}

async function addVendors(db: RedlineDb, ...slugs: string[]): Promise<void> {
  for (const slug of slugs) await addVendor(db, { slug, name: slug, platform: "statuspage", url: `http://${slug}.test/api/v2/incidents.json` }, "user");
}

async function vendorId(db: RedlineDb, slug: string): Promise<number> {
  const vendor = await getVendorBySlug(db, slug);
  if (!vendor) throw new Error(`no vendor ${slug}`);
  return vendor.id;
}

function pollState(db: RedlineDb, slug: string) {
  return db.$client
    .prepare(
      `SELECT p.last_outcome AS outcome, p.last_error AS error, p.consecutive_failures AS failures, p.backoff_seconds AS backoff,
         p.last_poll_at AS last, p.next_poll_at AS next
       FROM poll_state p JOIN vendors v ON v.id = p.vendor_id WHERE v.slug = ?`,
    )
    .get(slug) as { outcome: string; error: string | null; failures: number; backoff: number; last: string; next: string } | undefined;
}

/** Resolves waits when what they wait for has been seen; `notify` is called wherever something happens. */
function observer() {
  const waiters: Array<{ check: () => boolean; resolve: () => void }> = [];
  return {
    notify() {
      for (const waiter of [...waiters]) {
        if (!waiter.check()) continue;
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    },
    until(check: () => boolean): Promise<void> {
      return check() ? Promise.resolve() : new Promise((resolve) => waiters.push({ check, resolve }));
    },
  };
}

const FAST: Pick<SchedulerOptions, "concurrency" | "policy"> = { concurrency: 4, policy: { intervalMs: 100, maxBackoffMs: 400, jitter: 0 } };

// The faults are SQLite triggers and a renamed SQLite table; the scheduler's handling of them is the same code on either database.
describe.skipIf(testDatabaseDialect === "postgres")("the scheduler's failures (SQLite: faults made with SQLite triggers)", () => {
  it("records a failure that escapes pollVendor on the vendor, and backs it off further each time", async () => {
    const db = await freshDatabase();
    await addVendors(db, "acme");
    db.$client.exec("CREATE TRIGGER refuse_captures BEFORE INSERT ON captures BEGIN SELECT RAISE(ABORT, 'database is locked'); END");
    const scheduler = new Scheduler(depsFor(db, offlineClient([])), { concurrency: 1, policy: { intervalMs: 60_000, maxBackoffMs: 3_600_000, jitter: 0 } });
    const first = await scheduler.runOnce();
    expect(first).toMatchObject({ vendors: 1, ok: 0, failed: 1, firstError: expect.stringMatching(/^acme: .*database is locked/) });
    expect(pollState(db, "acme")).toMatchObject({ outcome: "failed", error: expect.stringContaining("database is locked"), failures: 1, backoff: 60 });
    await scheduler.runOnce();
    const state = pollState(db, "acme");
    expect(state).toMatchObject({ failures: 2, backoff: 120 });
    expect(Date.parse(state?.next ?? "") - Date.parse(state?.last ?? "")).toBe(120_000);
  });

  it("logs a poll whose outcome cannot be saved, holds that vendor back with a growing backoff while the others go on, and counts those failures once it can save", async () => {
    const db = await freshDatabase();
    await addVendors(db, "broken", "calm");
    const broken = await vendorId(db, "broken");
    // Its outcome cannot be saved; its lease (the claim that starts each poll) can.
    db.$client.exec(`CREATE TRIGGER refuse_insert BEFORE INSERT ON poll_state WHEN NEW.vendor_id = ${broken} AND NEW.last_poll_at IS NOT NULL BEGIN SELECT RAISE(ABORT, 'database is locked'); END;
      CREATE TRIGGER refuse_update BEFORE UPDATE ON poll_state WHEN NEW.vendor_id = ${broken} AND NEW.last_poll_at IS NOT OLD.last_poll_at BEGIN SELECT RAISE(ABORT, 'database is locked'); END;`);
    const requests: Array<{ url: string; at: number }> = [];
    const lines: string[] = [];
    const seen = observer();
    let calmPolls = 0;
    const scheduler = new Scheduler(depsFor(db, offlineClient(requests)), {
      ...FAST,
      tickMs: 50,
      log: (line) => {
        lines.push(line);
        seen.notify();
      },
      onPolled: (vendor) => {
        if (vendor.slug === "calm") calmPolls += 1;
        seen.notify();
      },
    });
    const unsaved = () => lines.filter((l) => l.startsWith("poller: broken: unable to save the outcome of its poll"));
    const running = scheduler.run();
    await seen.until(() => unsaved().length >= 3 && calmPolls >= 3);
    db.$client.exec("DROP TRIGGER refuse_insert; DROP TRIGGER refuse_update;");
    const held = unsaved().length;
    expect(unsaved()[0]).toMatch(/ECONNREFUSED.*: database is locked; polling it again in 0\.1 s$/);
    expect(unsaved()[1]).toMatch(/polling it again in 0\.2 s$/);
    expect(pollState(db, "broken")?.outcome ?? null).toBeNull();
    const asked = requests.filter((r) => r.url.startsWith("http://broken.test/")).map((r) => r.at);
    expect(asked[1] ?? 0).toBeGreaterThanOrEqual((asked[0] ?? Infinity) + 100);
    expect(asked[2] ?? 0).toBeGreaterThanOrEqual((asked[1] ?? Infinity) + 200);
    await seen.until(() => (pollState(db, "broken")?.outcome ?? null) !== null);
    scheduler.stop();
    await running;
    expect(pollState(db, "broken")).toMatchObject({ outcome: "failed", error: expect.stringContaining("ECONNREFUSED"), failures: held + 1 });
    expect(pollState(db, "calm")).toMatchObject({ outcome: "failed", failures: calmPolls });
  });

  it("keeps running when reading the schedule throws, logging each failure and waiting longer, and polls again once it can read", async () => {
    const db = await freshDatabase();
    await addVendors(db, "acme");
    db.$client.exec("ALTER TABLE poll_state RENAME TO poll_state_away");
    const lines: string[] = [];
    const seen = observer();
    const scheduler = new Scheduler(depsFor(db, offlineClient([])), {
      ...FAST,
      tickMs: 100,
      log: (line) => {
        lines.push(line);
        seen.notify();
      },
      onPolled: () => seen.notify(),
    });
    const running = scheduler.run();
    await seen.until(() => lines.length >= 3);
    db.$client.exec("ALTER TABLE poll_state_away RENAME TO poll_state");
    expect(lines.slice(0, 3)).toEqual([
      "poller: unable to read the schedule: no such table: poll_state; trying again in 0.1 s",
      "poller: unable to read the schedule: no such table: poll_state; trying again in 0.2 s",
      "poller: unable to read the schedule: no such table: poll_state; trying again in 0.4 s",
    ]);
    await seen.until(() => pollState(db, "acme") !== undefined);
    scheduler.stop();
    await expect(running).resolves.toBeUndefined();
    expect(pollState(db, "acme")).toMatchObject({ outcome: "failed", failures: 1 });
  });
});
