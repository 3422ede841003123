import type { RedlineDb } from "@/db/client";
import type { NotifyDeps } from "@/notify/deliver";
import { createSenders } from "@/notify/senders";
import { createJsonPoster } from "@/scrapers/http/http-post";
import { apiLinks } from "@/lib/api/links";

/** A clock the test moves: rounds see exactly the time the test sets. */
export function testClock(start = Date.now()) {
  let now = start;
  return { now: () => new Date(now), set: (ms: number) => void (now = ms), advance: (ms: number) => void (now += ms), ms: () => now };
}

/** Delivery to loopback receivers with patient timeouts: only a fault makes an attempt fail. */
export function testNotifyDeps(db: RedlineDb, clock: { now: () => Date }, overrides: Partial<NotifyDeps> = {}, smtpUrl?: string): NotifyDeps {
  const post = createJsonPoster({ allowPrivate: true, connectTimeoutMs: 60_000, responseTimeoutMs: 60_000, userAgent: "Redline/test" });
  return {
    db,
    senders: createSenders(post, { smtpUrl, from: "Redline <redline@test.example>", origin: "http://redline.test", connectTimeoutMs: 60_000, responseTimeoutMs: 60_000 }),
    links: apiLinks("http://redline.test"),
    now: clock.now,
    retryBaseMs: 1_000,
    concurrency: 4,
    random: () => 0.5,
    ...overrides,
  };
}
