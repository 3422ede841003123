import { createHash, timingSafeEqual } from "node:crypto";
import type http from "node:http";
import type { RedlineDb } from "@/db/client";
import { acceptHookDelivery, getHookVendor, type HookVendor, isKnownDelivery } from "@/db/operations/hooks";
import { getVendorBySlug } from "@/db/settings/vendors";
import type { Env } from "@/lib/env";
import { type BucketSettings, KeyedBuckets, TokenBucket } from "@/lib/token-bucket";
import { ingestSnapshot } from "@/scrapers/ingest/ingest-snapshot";
import { getPlatform } from "@/scrapers/platforms";
import type { FailureLimit } from "@/server/failure-limit";
import type { ThrottleTelemetry } from "@/server/hooks/throttle-telemetry";
import { problemBody } from "@/server/http/problem";

/**
 * POST /api/v1/hooks/<vendor>/<secret>: a vendor's status page pushing an incident update. A push
 * is a hint: it schedules a debounced poll of the vendor on the poller's push lane, and when the
 * payload is itself a Statuspage incident it is recorded as a capture too. Answered here, before
 * Next.js: a flood must cost as little as possible.
 */
const HOOK_PATH = /^\/api\/v1\/hooks\/([^/?]+)\/([^/?]+)$/;
/** A delivery's envelope (event id, delivery times) differs between retries of the same content. */
const ENVELOPE = /^(?:meta|id|event_?id|delivery_?id|webhook_?id|timestamp|sent_?at|generated_?at|attempt)$/i;
const STATUSPAGE_FAMILY = /^statuspage/;
/** How long a vendor's secret and state are taken as read: a changed secret applies within this. */
const VENDOR_CACHE_MS = 1_000;

export interface HookSettings {
  perSource: BucketSettings;
  ceiling: BucketSettings;
  maxBodyBytes: number;
  debounceMs: number;
}

/** The budgets and bounds from the environment. */
export function hookSettings(env: Env): HookSettings {
  return {
    perSource: { ratePerSecond: env.REDLINE_HOOK_RATE_PER_SECOND, burst: env.REDLINE_HOOK_BURST },
    ceiling: { ratePerSecond: env.REDLINE_HOOK_CEILING_PER_SECOND, burst: env.REDLINE_HOOK_CEILING_BURST },
    maxBodyBytes: env.REDLINE_HOOK_MAX_BODY_BYTES,
    debounceMs: env.REDLINE_HOOK_DEBOUNCE_SECONDS * 1000,
  };
}

export interface HookDeps {
  db: () => RedlineDb;
  settings: HookSettings;
  telemetry: ThrottleTelemetry;
  now?: () => number;
  /** The per-client budget of failed attempts: a push to an address with no webhook spends it. */
  failures?: Pick<FailureLimit, "waitSeconds" | "failed">;
  /** Told after a push recorded versions (server/web-server.ts: the WebSub pings). */
  onVersionsRecorded?: (captureId: number) => void;
}

type Answer = { status: number; body: Record<string, unknown>; headers?: Record<string, string> };

function sha256(data: string): Buffer {
  return createHash("sha256").update(data).digest();
}

function secretMatches(presented: string, storedHashHex: string | null): boolean {
  const stored = Buffer.from(storedHashHex ?? "", "hex");
  const given = sha256(presented);
  return stored.length === given.length && timingSafeEqual(stored, given);
}

/** The payload's content for replay detection: canonical JSON without the delivery envelope. */
export function hookContentHash(payload: Record<string, unknown>): string {
  const canonical = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(canonical);
    if (value && typeof value === "object") {
      return Object.fromEntries(Object.keys(value).sort().map((k) => [k, canonical((value as Record<string, unknown>)[k])]));
    }
    return value;
  };
  const content = Object.fromEntries(Object.entries(payload).filter(([key]) => !ENVELOPE.test(key)));
  return createHash("sha256").update(JSON.stringify(canonical(content))).digest("hex");
}

/** The body, up to `max` bytes; null when it is larger (reading stops there). */
function readBody(req: http.IncomingMessage, max: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        over = true;
        chunks.length = 0;
        return;
      }
      if (!over) chunks.push(chunk);
    });
    req.on("end", () => resolve(over ? null : Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

function problem(status: number, detail: string, headers: Record<string, string> = {}): Answer {
  return { status, body: { ...problemBody(status, detail) }, headers };
}

export function createHookHandler(deps: HookDeps) {
  const now = deps.now ?? Date.now;
  const { settings } = deps;
  const ceiling = new TokenBucket(settings.ceiling, now());
  const sources = new KeyedBuckets(settings.perSource);
  // A flood asks for the same vendor thousands of times a second: one read a second serves them.
  const vendors = new Map<string, { vendor: HookVendor | undefined; readAt: number }>();
  const hookVendor = async (db: RedlineDb, slug: string, t: number): Promise<HookVendor | undefined> => {
    const known = vendors.get(slug);
    if (known && t - known.readAt < VENDOR_CACHE_MS) return known.vendor;
    const vendor = await getHookVendor(db, slug);
    if (vendors.size > 10_000) vendors.clear();
    vendors.set(slug, { vendor, readAt: t });
    return vendor;
  };

  async function handle(req: http.IncomingMessage, slug: string, secret: string): Promise<Answer> {
    if (req.method !== "POST") return problem(405, "webhooks are POSTed", { allow: "POST" });
    // A client guessing addresses waits before each guess costs a read.
    const wait = deps.failures?.waitSeconds(req) ?? 0;
    if (wait > 0) return problem(429, `too many pushes to addresses with no webhook from this client; retry after ${wait} s`, { "retry-after": String(wait) });
    const t = now();
    // The ceiling over all sources is checked first, but spent only by pushes their own source's
    // budget lets through: one flooding source is stopped by its own bucket and cannot use up
    // everyone's ceiling.
    if (!ceiling.has(t)) {
      await deps.telemetry.throttled("ceiling", t, settings.ceiling);
      return problem(429, "too many pushes overall; retry later", { "retry-after": String(ceiling.secondsUntil(t)) });
    }
    const db = deps.db();
    const vendor = await hookVendor(db, decodeURIComponent(slug), t);
    // The same answer whether the vendor is unknown or the secret wrong: neither is revealed.
    if (!vendor || !vendor.enabled || !secretMatches(decodeURIComponent(secret), vendor.hookSecretHash)) {
      deps.failures?.failed(req, "push to an address with no webhook", "/api/v1/hooks/…");
      return problem(404, "no webhook at this address");
    }
    const own = sources.take(vendor.slug, t);
    if (!own.allowed) {
      await deps.telemetry.throttled(`source:${vendor.slug}`, t, settings.perSource);
      return problem(429, `too many pushes for ${vendor.slug}; retry after ${own.retryAfterSeconds} s`, { "retry-after": String(own.retryAfterSeconds) });
    }
    ceiling.take(t);
    if (!/^application\/(?:[\w.+-]+\+)?json\b/i.test(req.headers["content-type"] ?? "")) return problem(415, "send the payload as JSON (Content-Type: application/json)");
    const declared = Number(req.headers["content-length"] ?? "0");
    if (declared > settings.maxBodyBytes) return problem(413, `the payload is over ${settings.maxBodyBytes} bytes`);
    const body = await readBody(req, settings.maxBodyBytes);
    if (body === null) return problem(413, `the payload is over ${settings.maxBodyBytes} bytes`);
    let payload: unknown;
    try {
      payload = JSON.parse(body.toString("utf8"));
    } catch (error) {
      return problem(400, `the payload is not JSON: ${(error as Error).message}`);
    }
    if (!payload || typeof payload !== "object" || Array.isArray(payload)) return problem(400, "the payload must be a JSON object");
    const contentHash = hookContentHash(payload as Record<string, unknown>);
    const at = new Date(t).toISOString();
    // A replay (same content, whatever its event id) was taken already: nothing to do.
    if ((await isKnownDelivery(db, vendor.id, contentHash))) return { status: 200, body: { status: "duplicate", detail: "this content was received before" } };
    let versionsAdded = 0;
    const incident = (payload as Record<string, unknown>).incident;
    const platform = getPlatform("statuspage-incident");
    if (STATUSPAGE_FAMILY.test(vendor.platform) && incident && typeof incident === "object" && platform) {
      const full = await getVendorBySlug(db, vendor.slug);
      if (full) {
        const { meta: _meta, ...content } = payload as Record<string, unknown>;
        const result = await ingestSnapshot(db, { vendor: full, platform, source: "webhook", observedAt: at, body: Buffer.from(JSON.stringify(content)), notify: true });
        versionsAdded = result.versionsAdded;
        if (versionsAdded > 0 && result.captureId !== null) deps.onVersionsRecorded?.(result.captureId);
      }
    }
    await acceptHookDelivery(db, vendor.id, contentHash, at, t, settings.debounceMs);
    return { status: 202, body: { status: "accepted", detail: `a poll of ${vendor.slug} is scheduled`, versionsAdded } };
  }

  /** Answers the request when it is a webhook push; false for any other address. */
  return async (req: http.IncomingMessage, res: http.ServerResponse): Promise<boolean> => {
    const m = HOOK_PATH.exec((req.url ?? "").split("?")[0] ?? "");
    if (!m?.[1] || !m[2]) return false;
    const answer = await handle(req, m[1], m[2]);
    // Whatever was not read of a refused body is discarded, so the connection stays usable.
    req.resume();
    res.writeHead(answer.status, { "content-type": answer.status >= 400 ? "application/problem+json; charset=utf-8" : "application/json; charset=utf-8", "cache-control": "no-store", ...answer.headers });
    res.end(`${JSON.stringify(answer.body)}\n`);
    return true;
  };
}
