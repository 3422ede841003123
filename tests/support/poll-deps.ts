import type { RedlineDb } from "@/db/client";
import { createHttpClient } from "@/scrapers/http/http-client";
import { HostGate } from "@/scrapers/http/polite-fetch";
import type { PollDeps } from "@/scrapers/poller/poll-vendor";
import type { Simulator } from "@/simulator/server";

/** What the poller needs to poll the simulator on loopback: no politeness delay, one attempt, the simulator's clock. */
export function simulatorPollDeps(db: RedlineDb, simulator: Simulator, overrides: Partial<PollDeps> = {}): PollDeps {
  return {
    db,
    client: createHttpClient({ userAgent: "Redline/test", connectTimeoutMs: 1_000, responseTimeoutMs: 1_500, maxBodyBytes: 8 * 1024 * 1024, maxRedirects: 3, allowPrivate: true }),
    gate: new HostGate(0),
    retry: { attempts: 1, baseDelayMs: 10, maxDelayMs: 10, maxRetryAfterMs: 0 },
    followUpIntervalMs: 0,
    now: () => new Date(simulator.now()),
    ...overrides,
  };
}
