import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { closeStore, openStore } from "@/db/client";
import { addVendor } from "@/db/settings/vendors";
import { startSimulator } from "@/simulator/server";
import type { RecordedRequest } from "@/simulator/vendor-server";
import { withPostgresDatabase } from "@/tests/support/postgres";
import { testDatabaseDialect } from "@/tests/support/test-database-settings";
import { watchProcess } from "@/tests/support/watch-process";
import { REDLINE_BUNDLE } from "@/tests/support/redline-bundle";

const ROOT = path.resolve(__dirname, "..", "..", "..");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "redline-pollers-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The pollers share the suite's database: a SQLite file, or a database of the run's PostgreSQL cluster. */
const postgres = testDatabaseDialect === "postgres" ? withPostgresDatabase({ prefix: "redline_pollers" }) : null;
const sharedLocation = () => postgres?.url ?? path.join(dir, "shared.db");

const VENDORS = 200;
const INTERVAL_S = 10;
const LEASE_S = 8;
const CONCURRENCY = 16;

function startPoller(db: string, name: string) {
  const child = spawn(process.execPath, [REDLINE_BUNDLE, "poll", "--db", db], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      REDLINE_ALLOW_PRIVATE_URLS: "1",
      REDLINE_HOST_INTERVAL_MS: "0",
      REDLINE_POLL_LEASE_SECONDS: String(LEASE_S),
      REDLINE_POLL_CONCURRENCY: String(CONCURRENCY),
      // Each poller tells the simulator who it is through its User-Agent.
      REDLINE_CONTACT_URL: `https://ops.test/${name}`,
    },
  });
  return { child, name, watched: watchProcess(child) };
}

type Poller = ReturnType<typeof startPoller>;

/** What a poller reported failing: no poll of the simulator's vendors should. */
const failures = (p: Poller) => [...p.watched.stdout.filter((l) => / FAILED: /.test(l)), ...p.watched.stderr.filter((l) => /unable to/.test(l))];

/** Wait for `check`, or stop waiting at the first failure the poller reports, and say what it was. */
async function until(p: Poller, what: string, check: () => boolean): Promise<void> {
  await p.watched.until(what, () => check() || failures(p).length > 0);
  expect(failures(p).slice(0, 5), `poller ${p.name} failed while waiting for ${what}`).toEqual([]);
}
const byPoller = (r: RecordedRequest, p: Poller) => r.userAgent?.includes(`/${p.name})`) ?? false;

describe(`two pollers on one database (${testDatabaseDialect})`, () => {
  it("share 200 vendors, each polled by one at a time; the survivor of a kill -9 takes over its leases once they lapse, losing and repeating nothing", { timeout: 600_000 }, async () => {
    const sim = await startSimulator({ count: VENDORS, families: ["statuspage"], acceleration: 0, start: "2026-03-02T00:00:00.000Z", seed: 11 });
    const file = sharedLocation();
    const read = await openStore(file);
    for (const v of sim.vendors) await addVendor(read, { slug: v.slug, name: v.name, platform: v.family, url: v.url, intervalSeconds: INTERVAL_S }, "user");
    // A poll's first request: the vendor's own endpoint (incident pages and maintenances follow it).
    const polls = (slug: string) => sim.requests(slug).filter((r) => r.path === new URL(sim.vendor(slug).url).pathname);
    const a = startPoller(file, "a");
    const b = startPoller(file, "b");
    try {
      // A is killed mid-round: while due vendors remain, its slots are always full of claimed ones.
      await until(a, "poller a's first polls", () => sim.vendors.reduce((n, v) => n + sim.requests(v.slug).filter((r) => byPoller(r, a)).length, 0) >= 10);
      a.child.kill("SIGKILL");
      await a.watched.exited;
      const killedAt = Date.now();
      const held = await read.connection
        .prepare<[string], { slug: string; expiresAt: string; nextPollAt: string }>(
          "SELECT v.slug, p.lease_expires_at AS expiresAt, p.next_poll_at AS nextPollAt FROM poll_state p JOIN vendors v ON v.id = p.vendor_id WHERE p.lease_owner LIKE ?",
        )
        .all(`%:${a.child.pid}:%`);
      expect(held.length).toBeGreaterThan(0);
      for (const lease of held) expect(Date.parse(lease.expiresAt)).toBeLessThanOrEqual(killedAt + LEASE_S * 1000);

      // B polls every vendor, A's leased ones only after their leases lapse.
      const polledByBAfter = (slug: string, sinceMs: number) => sim.requests(slug).find((r) => byPoller(r, b) && r.receivedAtMs >= sinceMs);
      await until(b, "b polled every vendor after the kill", () => sim.vendors.every((v) => polledByBAfter(v.slug, killedAt)));
      const heldSlugs = new Set(held.map((lease) => lease.slug));
      const lateness: number[] = [];
      let mostStartedBefore = 0;
      for (const lease of held) {
        const taken = polledByBAfter(lease.slug, killedAt);
        const aRequests = sim.requests(lease.slug).filter((r) => byPoller(r, a));
        const expiry = Date.parse(lease.expiresAt);
        expect(taken?.receivedAtMs ?? 0, `${lease.slug} taken before its lease lapsed`).toBeGreaterThanOrEqual(expiry);
        const takenAt = taken?.receivedAtMs ?? Infinity;
        // A request A sent just before it died can be read after its exit was seen (the kernel holds it
        // until the simulator's turn comes); what matters is that none arrives once B has taken over.
        expect(aRequests.filter((r) => r.receivedAtMs >= takenAt), `${lease.slug} requested by A after B took it over`).toEqual([]);
        lateness.push(takenAt - expiry);
        // Taken at B's first claims after the lapse, not an interval later. How soon that is in time
        // depends on how busy the machine is; what does not is the order: B claims the earliest due
        // vendors first, and a lapsed vendor A was polling is due since A claimed it, so once its
        // lease lapses B starts at most the polls it had already claimed (one per slot) and those it
        // claims beside it before this one. (A vendor whose poll A had saved but whose lease it had
        // not released yet is due at its next poll instead, behind the others.)
        if (Date.parse(lease.nextPollAt) > expiry) continue;
        const startedBefore = sim.vendors
          .filter((v) => !heldSlugs.has(v.slug))
          .flatMap((v) => polls(v.slug).filter((r) => byPoller(r, b) && r.receivedAtMs >= expiry && r.receivedAtMs < takenAt));
        expect(startedBefore.length, `${lease.slug} taken over after B started ${startedBefore.length} other polls`).toBeLessThanOrEqual(2 * CONCURRENCY);
        mostStartedBefore = Math.max(mostStartedBefore, startedBefore.length);
      }
      console.info(`takeover after the lease lapsed: ${Math.min(...lateness)}–${Math.max(...lateness)} ms for ${held.length} vendors, after at most ${mostStartedBefore} other polls`);

      // Vendors change; B archives every change of every vendor.
      sim.setClock("2026-03-02T06:00:00.000Z");
      const changedAt = Date.now();
      await until(b, "b polled every vendor after the change", () => sim.vendors.every((v) => sim.requests(v.slug).some((r) => r.simulatedAt === sim.now() && r.receivedAtMs >= changedAt)));
      const polledLines = () => new Set(b.watched.stdout.filter((l) => / sim-\d+: ok/.test(l)).map((l) => / (sim-\d+): /.exec(l)?.[1]));
      const linesBefore = b.watched.stdout.length;
      await until(b, "b recorded a poll of every vendor after the change", () => {
        const recent = new Set(b.watched.stdout.slice(linesBefore).map((l) => / (sim-\d+): ok/.exec(l)?.[1]));
        return sim.vendors.every((v) => recent.has(v.slug));
      });
      expect(polledLines().size).toBe(VENDORS);
      b.child.kill("SIGTERM");
      await b.watched.exited;

      // Each vendor's polls, in arrival order, are an interval apart: never two pollers at once.
      for (const v of sim.vendors) {
        const seen = polls(v.slug);
        for (let i = 1; i < seen.length; i += 1) {
          const [before, after] = [seen[i - 1], seen[i]];
          // A poll the killed poller started is followed by the survivor's after the lease lapsed (checked above).
          if (!before || !after || (byPoller(before, a) && byPoller(after, b))) continue;
          expect(after.receivedAtMs - before.receivedAtMs, `${v.slug} polled twice at once: ${JSON.stringify(seen)}`).toBeGreaterThanOrEqual((INTERVAL_S * 1000) / 2);
        }
      }
      // A version repeating its predecessor's content can only say the incident's presence changed.
      const repeated = await read.connection
        .prepare<[], { incident: number; seq: number; kinds: string }>(
          `SELECT a.incident_id AS incident, b.seq, b.kinds FROM incident_versions a
           JOIN incident_versions b ON b.incident_id = a.incident_id AND b.seq = a.seq + 1 WHERE a.hash = b.hash`,
        )
        .all();
      const presenceOnly = new Set(["incident-left-feed", "incident-deleted", "incident-reappeared"]);
      expect(repeated.filter((r) => !(JSON.parse(r.kinds) as string[]).every((k) => presenceOnly.has(k)))).toEqual([]);
      const gaps = await read.connection
        .prepare<[], { n: number }>("SELECT count(*) AS n FROM incidents i WHERE i.version_count <> (SELECT count(*) FROM incident_versions v WHERE v.incident_id = i.id)")
        .get();
      expect(gaps?.n).toBe(0);
      for (const v of sim.vendors) {
        const archived = await read.connection
          .prepare<[string], { id: string; title: string; status: string | null }>(
            "SELECT i.provider_id AS id, i.title, i.status FROM incidents i JOIN vendors v ON v.id = i.vendor_id WHERE v.slug = ? AND i.presence = 'listed' ORDER BY i.provider_id",
          )
          .all(v.slug);
        const shown = sim.stateOf(v.slug).map((i) => ({ id: i.id, title: i.title, status: i.status })).sort((x, y) => (x.id < y.id ? -1 : 1));
        expect(archived, v.slug).toEqual(shown);
      }
    } finally {
      a.child.kill("SIGKILL");
      b.child.kill("SIGKILL");
      await closeStore(read);
      await sim.stop();
    }
  });
});
