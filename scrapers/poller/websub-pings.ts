import type { RedlineDb } from "@/db/client";
import { versionsOfCapture } from "@/db/queries/capture-versions";
import type { Env } from "@/lib/env";
import { feedTopics } from "@/lib/websub-topics";

export class WebSubPingError extends Error {
  readonly kind: "timeout" | "refused" | "status";
  constructor(kind: WebSubPingError["kind"], message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "WebSubPingError";
    this.kind = kind;
  }
}

export interface WebSubPingerOptions {
  hub: string;
  /** The archive's public origin: the feed URLs readers subscribed to. */
  origin: string;
  db: () => RedlineDb;
  log: (line: string) => void;
  timeoutMs?: number;
  concurrency?: number;
  /** Topics waiting beyond this are dropped: a hub that is down must not grow the poller's memory. */
  maxQueued?: number;
}

/**
 * Tells a WebSub hub which feeds gained entries. Fire-and-forget after the write: `published()`
 * returns at once, pings go out a few at a time, and failed pings are dropped, one log line when the hub starts failing.
 */
export class WebSubPinger {
  private readonly queue: string[] = [];
  private readonly queued = new Set<string>();
  private active = 0;
  /** Captures whose versions are being read, their pings not queued yet. */
  private reading = 0;
  private idleWaiters: (() => void)[] = [];
  /** Pings dropped since the hub last accepted one: only the first of a run is logged. */
  private failing = 0;
  private readonly timeoutMs: number;
  private readonly concurrency: number;
  private readonly maxQueued: number;

  constructor(private readonly options: WebSubPingerOptions) {
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.concurrency = options.concurrency ?? 4;
    this.maxQueued = options.maxQueued ?? 1_000;
  }

  /** A capture recorded versions: queue a ping for every feed they appear in. */
  published(captureId: number): void {
    this.reading += 1;
    void versionsOfCapture(this.options.db(), captureId)
      .then((versions) => this.enqueue(feedTopics(this.options.origin, versions)))
      .catch((error: unknown) => {
        this.options.log(`websub: pings for capture ${captureId} dropped: ${error instanceof Error ? error.message : String(error)}`);
      })
      .finally(() => {
        this.reading -= 1;
        this.pump();
        this.settle();
      });
  }

  private enqueue(topics: readonly string[]): void {
    let dropped = 0;
    for (const topic of topics) {
      if (this.queued.has(topic)) continue;
      if (this.queued.size >= this.maxQueued) {
        dropped += 1;
        continue;
      }
      this.queued.add(topic);
      this.queue.push(topic);
    }
    if (dropped > 0) this.options.log(`websub: ${dropped} pings dropped: ${this.maxQueued} already waiting for ${this.options.hub}`);
  }

  private settle(): void {
    if (this.active === 0 && this.queue.length === 0 && this.reading === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
  }

  /** Pings sent and not yet answered. */
  get inFlight(): number {
    return this.active;
  }

  /** Resolves when no ping is waiting or in flight (at most one timeout per ping later). */
  async drain(): Promise<void> {
    if (this.active === 0 && this.queue.length === 0 && this.reading === 0) return;
    await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
  }

  private pump(): void {
    while (this.active < this.concurrency) {
      const topic = this.queue.shift();
      if (topic === undefined) break;
      this.queued.delete(topic);
      this.active += 1;
      void this.ping(topic)
        .then(() => {
          if (this.failing > 0) this.options.log(`websub: ${this.options.hub} accepts pings again, ${this.failing} dropped while it failed`);
          this.failing = 0;
        })
        .catch((error: unknown) => {
          if (this.failing === 0) {
            const reason = error instanceof Error ? error.message : String(error);
            this.options.log(`websub: ping for ${topic} dropped: ${reason}; further pings are dropped silently until the hub accepts one`);
          }
          this.failing += 1;
        })
        .finally(() => {
          this.active -= 1;
          this.pump();
          this.settle();
        });
    }
  }

  private async ping(topic: string): Promise<void> {
    let response: Response;
    try {
      response = await fetch(this.options.hub, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ "hub.mode": "publish", "hub.url": topic }).toString(),
        signal: AbortSignal.timeout(this.timeoutMs),
        redirect: "error",
      });
    } catch (error) {
      const timedOut = error instanceof Error && error.name === "TimeoutError";
      throw new WebSubPingError(timedOut ? "timeout" : "refused", timedOut ? `${this.options.hub} did not answer within ${this.timeoutMs} ms` : `${this.options.hub} unreachable`, { cause: error });
    }
    await response.body?.cancel();
    if (!response.ok) throw new WebSubPingError("status", `${this.options.hub} answered ${response.status}`);
  }
}

/** The pinger the environment asks for, or null: no hub, or no public origin to name the feeds with (said once). */
export function createWebSubPinger(db: () => RedlineDb, env: Env, log: (line: string) => void): WebSubPinger | null {
  const hub = env.REDLINE_WEBSUB_HUB;
  if (!hub) return null;
  if (!env.REDLINE_PUBLIC_URL) {
    log("websub: REDLINE_WEBSUB_HUB is set but REDLINE_PUBLIC_URL is not: feeds advertise the hub, but Redline cannot name them to it, so pings are off");
    return null;
  }
  return new WebSubPinger({ hub, origin: new URL(env.REDLINE_PUBLIC_URL).origin, db, log, timeoutMs: env.REDLINE_RESPONSE_TIMEOUT_MS });
}
