import type { RedlineDb } from "@/db/client";
import { reserveHostSlot } from "@/db/operations/host-slots";
import { type CatchUpClock, catchUpTime, parseCatchUpClock } from "@/lib/catch-up-clock";
import type { Env } from "@/lib/env";
import { createHttpClient } from "@/scrapers/http/http-client";
import { HostGate } from "@/scrapers/http/polite-fetch";
import type { PollDeps } from "@/scrapers/poller/poll-vendor";
import { leasePolicy } from "@/scrapers/poller/poller-lease";
import { Scheduler, type SchedulerOptions } from "@/scrapers/poller/scheduler";

export const REDLINE_VERSION = "0.1.0";

/** "Redline/0.1.0 (+https://ops.example/contact)": who is polling, and how to reach them. */
export function userAgentFor(env: Env): string {
  const contact = env.REDLINE_CONTACT_URL.trim();
  return `Redline/${REDLINE_VERSION} (status page archiver; ${contact ? `+${contact}` : "operator contact not configured: set REDLINE_CONTACT_URL"})`;
}

function demoNow(clock: CatchUpClock): () => Date {
  return () => new Date(catchUpTime(clock, Date.now()));
}

/** The poller's dependencies, configured from the environment. */
export function createPollDeps(db: RedlineDb, env: Env): PollDeps {
  return {
    db,
    client: createHttpClient({
      userAgent: userAgentFor(env),
      connectTimeoutMs: env.REDLINE_CONNECT_TIMEOUT_MS,
      responseTimeoutMs: env.REDLINE_RESPONSE_TIMEOUT_MS,
      maxBodyBytes: env.REDLINE_MAX_BODY_BYTES,
      maxRedirects: 5,
      allowPrivate: env.REDLINE_ALLOW_PRIVATE_URLS,
    }),
    // Booked in the database: pollers sharing it keep the interval between them too.
    gate: new HostGate(env.REDLINE_HOST_INTERVAL_MS, Date.now, (origin, intervalMs, nowMs) => reserveHostSlot(db, origin, intervalMs, nowMs)),
    retry: { attempts: 3, baseDelayMs: 1_000, maxDelayMs: 30_000, maxRetryAfterMs: 60_000 },
    followUpIntervalMs: env.REDLINE_POSTMORTEM_INTERVAL_SECONDS * 1000,
    ...(env.REDLINE_DEMO_CLOCK === undefined ? {} : { now: demoNow(parseCatchUpClock(env.REDLINE_DEMO_CLOCK)) }),
  };
}

export function createScheduler(deps: PollDeps, env: Env, options: Partial<SchedulerOptions> = {}): Scheduler {
  return new Scheduler(deps, {
    concurrency: env.REDLINE_POLL_CONCURRENCY,
    policy: { intervalMs: env.REDLINE_POLL_INTERVAL_SECONDS * 1000, maxBackoffMs: env.REDLINE_MAX_BACKOFF_SECONDS * 1000, jitter: 0.1 },
    lease: leasePolicy(env.REDLINE_POLL_LEASE_SECONDS),
    ...options,
  });
}
