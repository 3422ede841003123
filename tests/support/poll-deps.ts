import type { RedlineDb } from "@/db/client";
import { createHttpClient, type HttpClient } from "@/scrapers/http/http-client";
import { HostGate } from "@/scrapers/http/polite-fetch";
import type { PollDeps } from "@/scrapers/poller/poll-vendor";
import type { Simulator } from "@/simulator/server";

/** Longer than any exchange with the simulator takes on a busy machine: only a fault runs into it. */
const PATIENT_TIMEOUT_MS = 120_000;

export interface CutShort {
  /** The vendors whose hangs and trickles the timeouts are there to end. */
  slugs: readonly string[];
  connectTimeoutMs: number;
  responseTimeoutMs: number;
}

/**
 * An HTTP client for the simulator. Timeouts short enough to test with apply only to the vendors
 * named in `cutShort`; every other vendor gets timeouts no busy machine reaches, so a healthy
 * vendor never fails for being slow to serve.
 */
export function simulatorClient(simulator: Simulator, cutShort?: CutShort, maxBodyBytes = 8 * 1024 * 1024): HttpClient {
  const common = { userAgent: "Redline/test", maxBodyBytes, maxRedirects: 3, allowPrivate: true };
  const patient = createHttpClient({ ...common, connectTimeoutMs: PATIENT_TIMEOUT_MS, responseTimeoutMs: PATIENT_TIMEOUT_MS });
  if (!cutShort) return patient;
  const short = createHttpClient({ ...common, connectTimeoutMs: cutShort.connectTimeoutMs, responseTimeoutMs: cutShort.responseTimeoutMs });
  const origins = new Set(cutShort.slugs.map((slug) => new URL(simulator.vendor(slug).baseUrl).origin));
  return { get: (url, conditional, signal) => (origins.has(new URL(url).origin) ? short : patient).get(url, conditional, signal) };
}

/** What the poller needs to poll the simulator on loopback: no politeness delay, one attempt, the simulator's clock. */
export function simulatorPollDeps(db: RedlineDb, simulator: Simulator, overrides: Partial<PollDeps> = {}): PollDeps {
  return {
    db,
    client: simulatorClient(simulator),
    gate: new HostGate(0),
    retry: { attempts: 1, baseDelayMs: 10, maxDelayMs: 10, maxRetryAfterMs: 0 },
    followUpIntervalMs: 0,
    now: () => new Date(simulator.now()),
    ...overrides,
  };
}

/**
 * A client that holds every request `held` picks until release(), then sends it on: a vendor
 * that does not answer for exactly as long as the test needs, however fast the machine.
 */
export function holdingClient(inner: HttpClient, held: (url: string) => boolean): { client: HttpClient; release(): void; heldCount(): number } {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let count = 0;
  return {
    client: {
      async get(url, conditional, signal) {
        if (held(url)) {
          count += 1;
          await released;
        }
        return inner.get(url, conditional, signal);
      },
    },
    release: () => release(),
    heldCount: () => count,
  };
}
