/** The notifier's dependencies as the environment configures them, among them the HTTP client senders go through, with the address rules. */
import type { RedlineDb } from "@/db/client";
import { apiLinks } from "@/lib/api/links";
import type { Env } from "@/lib/env";
import type { NotifyDeps } from "@/notify/deliver";
import { createSenders } from "@/notify/senders";
import { createJsonPoster } from "@/scrapers/http/http-post";
import { userAgentFor } from "@/scrapers/poller/create-poller";

/** Links in messages point at the public address; without one, at this machine's web server (said once in the log). */
export function notifyOrigin(env: Env): { origin: string; configured: boolean } {
  return env.REDLINE_PUBLIC_URL ? { origin: new URL(env.REDLINE_PUBLIC_URL).origin, configured: true } : { origin: `http://localhost:${env.PORT}`, configured: false };
}

export function createNotifyDeps(db: RedlineDb, env: Env, overrides: Partial<NotifyDeps> = {}): NotifyDeps {
  const post = createJsonPoster({
    allowPrivate: env.REDLINE_ALLOW_PRIVATE_URLS,
    connectTimeoutMs: env.REDLINE_NOTIFY_CONNECT_TIMEOUT_MS,
    responseTimeoutMs: env.REDLINE_NOTIFY_RESPONSE_TIMEOUT_MS,
    userAgent: userAgentFor(env),
  });
  const { origin, configured } = notifyOrigin(env);
  const email = {
    smtpUrl: env.REDLINE_SMTP_URL,
    from: env.REDLINE_MAIL_FROM,
    origin: configured ? origin : null,
    connectTimeoutMs: env.REDLINE_NOTIFY_CONNECT_TIMEOUT_MS,
    responseTimeoutMs: env.REDLINE_NOTIFY_RESPONSE_TIMEOUT_MS,
  };
  return {
    db,
    senders: createSenders(post, email),
    links: apiLinks(origin),
    now: () => new Date(),
    retryBaseMs: env.REDLINE_NOTIFY_RETRY_BASE_SECONDS * 1000,
    concurrency: env.REDLINE_NOTIFY_CONCURRENCY,
    ...overrides,
  };
}
