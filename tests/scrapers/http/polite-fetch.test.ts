import { describe, expect, it } from "vitest";
import { reserveHostSlot } from "@/db/operations/host-slots";
import { type HttpClient, HttpError, type HttpResponse } from "@/scrapers/http/http-client";
import { HostGate, politeGet, type RetryPolicy } from "@/scrapers/http/polite-fetch";
import { freshDatabase } from "@/tests/support/database";

const ok: HttpResponse = { status: 200, url: "", notModified: false, body: Buffer.from("ok"), contentType: null, etag: null, lastModified: null };
const retry: RetryPolicy = { attempts: 3, baseDelayMs: 100, maxDelayMs: 1_000, maxRetryAfterMs: 30_000 };

/** A clock that remembers its last reading: handed to a gate, what it read as it let a request go. */
function rememberingClock(): { now: () => number; last: () => number } {
  let last = 0;
  return {
    now: () => {
      last = Date.now();
      return last;
    },
    last: () => last,
  };
}

/** A client that plays a script of answers and records when each request started, by `stamp`. */
function scripted(answers: Array<HttpResponse | HttpError>, holdMs = 0, stamp: () => number = Date.now) {
  const starts: number[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const client: HttpClient = {
    async get() {
      starts.push(stamp());
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((r) => setTimeout(r, holdMs));
      inFlight -= 1;
      const answer = answers.shift() ?? ok;
      if (answer instanceof HttpError) throw answer;
      return answer;
    },
  };
  return { client, starts, maxInFlight: () => maxInFlight };
}

describe("HostGate", () => {
  it("lets one request at a time reach a host, spaced by the minimum interval", async () => {
    // Starts are the gate's own readings, so a preempted test process cannot shorten a gap it kept.
    const clock = rememberingClock();
    const { client, starts, maxInFlight } = scripted([], 20, clock.last);
    const gate = new HostGate(60, clock.now);
    await Promise.all(Array.from({ length: 4 }, () => politeGet({ client, gate, retry }, "https://a.example/x")));
    expect(maxInFlight()).toBe(1);
    for (let i = 1; i < starts.length; i += 1) expect((starts[i] ?? 0) - (starts[i - 1] ?? 0)).toBeGreaterThanOrEqual(59);
  });

  it("books every start with reservations shared by two gates, as two pollers on one database do", async () => {
    const db = await freshDatabase();
    const { client, starts } = scripted([], 5);
    const booked: number[] = [];
    const reserve = async (origin: string, intervalMs: number, nowMs: number) => {
      const start = await reserveHostSlot(db, origin, intervalMs, nowMs);
      booked.push(start);
      return start;
    };
    const gates = [new HostGate(60, Date.now, reserve), new HostGate(60, Date.now, reserve)] as const;
    await Promise.all(Array.from({ length: 4 }, (_, i) => politeGet({ client, gate: gates[i % 2] ?? gates[0], retry }, "https://a.example/x")));
    const byTime = (a: number, b: number) => a - b;
    booked.sort(byTime);
    starts.sort(byTime);
    expect(booked).toHaveLength(4);
    for (let i = 1; i < booked.length; i += 1) expect((booked[i] ?? 0) - (booked[i - 1] ?? 0)).toBeGreaterThanOrEqual(60);
    // Each request waited for its booking (the k-th start is no earlier than the k-th booking).
    starts.forEach((start, i) => expect(start).toBeGreaterThanOrEqual(booked[i] ?? Infinity));
  });

  it("does not hold one host's requests behind another's", async () => {
    const { client, maxInFlight } = scripted([], 30);
    const gate = new HostGate(1_000);
    await Promise.all(["https://a.example/", "https://b.example/", "https://c.example/"].map((u) => politeGet({ client, gate, retry }, u)));
    expect(maxInFlight()).toBe(3);
  });
});

describe("politeGet retries", () => {
  it("retries transient failures with growing, jittered delays, then succeeds", async () => {
    const waits: number[] = [];
    const { client, starts } = scripted([
      new HttpError("status", "500", { transient: true, status: 500 }),
      new HttpError("timeout", "slow", { transient: true }),
    ]);
    const response = await politeGet({ client, gate: new HostGate(0), retry, random: () => 0.5, wait: async (ms) => { waits.push(ms); } }, "https://a.example/");
    expect(response.status).toBe(200);
    expect(starts).toHaveLength(3);
    expect(waits).toEqual([50, 100]);
  });

  it("never retries a permanent failure", async () => {
    const { client, starts } = scripted([new HttpError("status", "404", { transient: false, status: 404 })]);
    await expect(politeGet({ client, gate: new HostGate(0), retry, wait: async () => {} }, "https://a.example/")).rejects.toMatchObject({ status: 404 });
    expect(starts).toHaveLength(1);
  });

  it("waits out a short Retry-After and hands a long one back to the scheduler", async () => {
    const waits: number[] = [];
    const wait = async (ms: number) => { waits.push(ms); };
    const short = scripted([new HttpError("status", "429", { transient: true, status: 429, retryAfterMs: 2_000 })]);
    await politeGet({ client: short.client, gate: new HostGate(0), retry, wait }, "https://a.example/");
    expect(waits).toEqual([2_000]);
    const long = scripted([new HttpError("status", "503", { transient: true, status: 503, retryAfterMs: 3_600_000 })]);
    await expect(politeGet({ client: long.client, gate: new HostGate(0), retry, wait }, "https://a.example/")).rejects.toMatchObject({ retryAfterMs: 3_600_000 });
    expect(long.starts).toHaveLength(1);
  });
});

describe("HostGate memory", () => {
  it("keeps the interval after the host has gone idle", async () => {
    const { client, starts } = scripted([], 5);
    const gate = new HostGate(80);
    await politeGet({ client, gate, retry }, "https://a.example/1");
    await politeGet({ client, gate, retry }, "https://a.example/2");
    expect((starts[1] ?? 0) - (starts[0] ?? 0)).toBeGreaterThanOrEqual(79);
  });
});
