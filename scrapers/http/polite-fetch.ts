import { setTimeout as sleep } from "node:timers/promises";
import { type ConditionalHeaders, type HttpClient, HttpError, type HttpResponse } from "@/scrapers/http/http-client";

/**
 * One request at a time per origin, and at least `minIntervalMs` between the starts of two
 * requests to it: a vendor's status page never sees Redline faster than that.
 */
export class HostGate {
  private readonly hosts = new Map<string, { tail: Promise<void>; lastStart: number; pending: number }>();
  /**
   * `reserve`, when given, books each start with every other poller sharing the database
   * (db/operations/host-slots.ts) and answers when it may be: the interval then holds across processes.
   */
  constructor(
    private readonly minIntervalMs: number,
    private readonly now: () => number = Date.now,
    private readonly reserve?: (origin: string, intervalMs: number, nowMs: number) => Promise<number>,
  ) {}

  async run<T>(origin: string, work: () => Promise<T>): Promise<T> {
    if (this.hosts.size > 1_000) this.forgetIdleHosts();
    const host = this.hosts.get(origin) ?? { tail: Promise.resolve(), lastStart: -Infinity, pending: 0 };
    this.hosts.set(origin, host);
    host.pending += 1;
    let release = () => {};
    const previous = host.tail;
    host.tail = new Promise<void>((resolve) => {
      release = resolve;
    });
    try {
      await previous;
      const wait = host.lastStart + this.minIntervalMs - this.now();
      if (wait > 0) await sleep(wait);
      if (this.reserve && this.minIntervalMs > 0) {
        // A timer may fire a millisecond before the clock reaches its time: wait until it has.
        const booked = await this.reserve(origin, this.minIntervalMs, this.now());
        for (let shared = booked - this.now(); shared > 0; shared = booked - this.now()) await sleep(shared);
      }
      host.lastStart = this.now();
      return await work();
    } finally {
      release();
      host.pending -= 1;
    }
  }

  /** Hosts with nothing queued whose interval has passed need no memory of their last request. */
  private forgetIdleHosts(): void {
    const now = this.now();
    for (const [origin, host] of this.hosts) {
      if (host.pending === 0 && host.lastStart + this.minIntervalMs <= now) this.hosts.delete(origin);
    }
  }
}

export interface RetryPolicy {
  /** Tries in all, the first included. */
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited out here: the scheduler backs off instead. */
  maxRetryAfterMs: number;
}

export interface PoliteFetchDeps {
  client: HttpClient;
  gate: HostGate;
  retry: RetryPolicy;
  random?: () => number;
  wait?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

function defaultWait(ms: number, signal?: AbortSignal): Promise<void> {
  return sleep(ms, undefined, { signal });
}

/**
 * GET through the host gate, retrying only transient failures, with exponential backoff and
 * full jitter; a server's Retry-After on 429/503 is honoured when it is short enough to wait.
 */
export async function politeGet(deps: PoliteFetchDeps, url: string, conditional: ConditionalHeaders = {}, signal?: AbortSignal): Promise<HttpResponse> {
  const origin = new URL(url).origin;
  const random = deps.random ?? Math.random;
  const wait = deps.wait ?? defaultWait;
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await deps.gate.run(origin, () => deps.client.get(url, conditional, signal));
    } catch (error) {
      if (!(error instanceof HttpError) || !error.transient || attempt >= deps.retry.attempts || signal?.aborted) throw error;
      if (error.retryAfterMs !== null && error.retryAfterMs > deps.retry.maxRetryAfterMs) throw error;
      const backoff = Math.min(deps.retry.maxDelayMs, deps.retry.baseDelayMs * 2 ** (attempt - 1));
      await wait(error.retryAfterMs ?? Math.floor(random() * backoff), signal);
    }
  }
}
