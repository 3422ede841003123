/**
 * The web process: Next.js behind a plain Node http server that keeps rendered archive pages in
 * memory (server/page-cache.ts) until an archive change concerns them (server/page-scope.ts). During
 * an outage many people open the same incident; they get the page as rendered for the first of
 * them, without a new render, while other vendors' new versions evict only their own pages.
 * Incident, change and component pages are rendered without Next (server/archive-pages.tsx), on
 * worker threads (server/archive-page-pool.ts).
 * Run as `node --import tsx server/web-server.ts`; honours HOST, PORT, REDLINE_DATABASE_URL and REDLINE_DB.
 */
import http from "node:http";
import os from "node:os";
import path from "node:path";
import next from "next";
import type { RedlineDb } from "@/db/client";
import { getArchiveChangePosition, listArchiveChangesSince } from "@/db/queries/archive-changes";
import { readPollingNotice } from "@/db/queries/poll-outcomes";
import { createReadinessProbe } from "@/db/operations/readiness";
import { getServerDb } from "@/db/driver/server-db";
import { databaseLocation, readEnv } from "@/lib/env";
import { linkOrigin } from "@/lib/link-origin";
import { describeListenFailure, EXIT_CONFIG } from "@/lib/listen-failure";
import { createArchivePagePool, pooledRenderer } from "@/server/archive-page-pool";
import { answerArchivePage, type ArchivePageRenderer, renderArchivePage } from "@/server/archive-pages";
import { errorMessage } from "@/lib/error-message";
import { renderBadRequestPage } from "@/lib/render/bad-request-html";
import { POLLING_NOTICE_ID } from "@/lib/render/site-frame";
import { baselineHeaders, newNonce, nonceOf, securityHeaders, servedOverHttps } from "@/lib/security-headers";
import { answerHealth, isHealthCheck } from "@/server/health";
import { builtStylesheets } from "@/server/http/built-stylesheets";
import { problemBody } from "@/server/http/problem";
import { routedPathname } from "@/server/http/routed-path";
import { dropUntrustedForwarding, trustProxies } from "@/server/http/client-address";
import { recordListeningOrigin } from "@/server/http/listening-origin";
import { isNextRouterRequest } from "@/server/http/next-router";
import { isNotModified } from "@/server/http/conditional";
import { createAlertSender } from "@/server/hooks/alert-sender";
import { createHookHandler, hookSettings } from "@/server/hooks/hook-route";
import { ThrottleTelemetry } from "@/server/hooks/throttle-telemetry";
import { createWebSubPinger } from "@/scrapers/poller/websub-pings";
import { createFailureLimit } from "@/server/failure-limit";
import { createClientRateLimit } from "@/server/rate-limit";
import { type ArchiveChangeFeed, type CachedPage, PageCache } from "@/server/page-cache";
import { pageScopeOf } from "@/server/page-scope";
import { answerSearchesBusy } from "@/server/search/admission";
import { answerSearchPage } from "@/server/search/page";
import { installSearchRunner } from "@/server/search/runner";
import { startWebSearches } from "@/server/search/start";

const ROOT = path.resolve(__dirname, "..");
/**
 * Answers made only of archived data (not poll health), so the archive's changes date them:
 * pages, feeds, exports, the API's incidents, changes, quiet degradations, search and document, and
 * the page as it was at a moment. Vendor lists and profiles show polling health and are always rendered.
 */
const CACHEABLE = [
  /^\/(?:search|feed\.(?:atom|rss|json)|maintenance\.ics)?$/,
  /^\/kinds\/[^/]+\/feed\.(?:atom|rss|json)$/,
  /^(?:\/api\/v1)?\/vendors\/[^/]+\/(?:changes|feed\.(?:atom|rss|json)|kinds\/[^/]+\/feed\.(?:atom|rss|json)|maintenance\.ics|incidents\/.+)$/,
  // A component's page: its vendor's changes evict it, and its "now" ages with the minute's expiry like every kept page.
  /^\/vendors\/[^/]+\/components\/[^/]+$/,
  /^\/api\/v1\/(?:incidents|changes|quiet-degradations|search|openapi\.json)$/,
  /^\/api\/v1\/vendors\/[^/]+\/quiet-degradations$/,
];
/** The page as it was at a moment is archived data; without a moment it is now, and says how fresh that is. */
const STATUS_AT = /^(?:\/api\/v1)?\/vendors\/[^/]+\/status$/;
const TTL_MS = 60_000;
const MAX_ENTRY_BYTES = 2 * 1024 * 1024;

export type RequestHandler = (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void> | void;

/** The key a request's page is kept under, or null when it must be rendered afresh. */
export function cacheKeyFor(req: http.IncomingMessage): string | null {
  if (req.method !== "GET" || !req.url) return null;
  const url = new URL(req.url, "http://x");
  const cacheable = CACHEABLE.some((pattern) => pattern.test(url.pathname)) || (STATUS_AT.test(url.pathname) && url.searchParams.has("at"));
  if (!cacheable || url.searchParams.has("_rsc")) return null;
  // The operator's view of the API differs from everyone else's.
  if (req.headers.authorization !== undefined) return null;
  if (isNextRouterRequest(req)) return null;
  // A reload ("no-cache") gets a fresh render. A conditional request says no-cache too (fetch
  // adds it), but its validators are answered from what is kept, which is the archive's current state.
  const conditional = req.headers["if-none-match"] !== undefined || req.headers["if-modified-since"] !== undefined;
  if (!conditional && /no-cache|no-store|max-age=0/.test(req.headers["cache-control"] ?? "")) return null;
  // Feeds and the API make their links absolute with REDLINE_PUBLIC_URL or the listening address,
  // never the Host, so one key serves every Host (no sender can split the cache); the scheme a
  // trusted proxy reports still names the links (dropUntrustedForwarding removed anyone else's).
  return `${req.headers["x-forwarded-proto"] ?? ""} ${url.pathname}${url.search}`;
}

/** A kept answer as this reader gets it: with a nonce of its own, never the one another reader saw. */
function freshCopy(page: CachedPage, withBody: boolean): CachedPage {
  if (!page.nonce) return page;
  const nonce = newNonce();
  const headers = { ...page.headers };
  const csp = header(headers["content-security-policy"]);
  if (csp) headers["content-security-policy"] = csp.replaceAll(page.nonce, nonce);
  const pieces = withBody ? page.bodyAroundNonce : undefined;
  // Feeds and API answers carry the policy but not the nonce: their bodies are served as kept.
  const body = pieces ? joinAround(pieces, Buffer.from(nonce, "utf8")) : page.body;
  return { ...page, headers, body, nonce };
}

/** The body's pieces around each place it held `nonce`; undefined when it holds none. */
export function cutAroundNonce(body: Buffer, nonce: string): Buffer[] | undefined {
  const needle = Buffer.from(nonce, "utf8");
  const pieces: Buffer[] = [];
  let from = 0;
  for (let at = body.indexOf(needle); at !== -1; at = body.indexOf(needle, from)) {
    pieces.push(body.subarray(from, at));
    from = at + needle.length;
  }
  if (pieces.length === 0) return undefined;
  pieces.push(body.subarray(from));
  return pieces;
}

function joinAround(pieces: readonly Buffer[], nonce: Buffer): Buffer {
  const joined: Buffer[] = [];
  for (const [i, piece] of pieces.entries()) {
    if (i > 0) joined.push(nonce);
    joined.push(piece);
  }
  return Buffer.concat(joined);
}

function header(value: string | string[] | undefined): string | null {
  return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
}

/** The kept answer's validators against the request's: a reader polling a feed gets its 304 here. */
function clientHasIt(req: http.IncomingMessage, page: CachedPage): boolean {
  const etag = header(page.headers.etag);
  if (etag === null) return false;
  const lastModified = header(page.headers["last-modified"]);
  return isNotModified({ headers: { get: (name) => header(req.headers[name.toLowerCase()]) } }, etag, lastModified ? new Date(lastModified).toISOString() : null);
}

function send(res: http.ServerResponse, page: CachedPage, state: "hit"): void {
  res.writeHead(page.status, { ...page.headers, "content-length": String(page.body.length), "x-redline-cache": state });
  res.end(page.body);
}

/** Where a page holds the polling banner (components/site-chrome.tsx): its id with the quotes no vendor text keeps unescaped. */
const NOTICE_MARK = Buffer.from(`id="${POLLING_NOTICE_ID}"`, "utf8");

function isHtml(headers: Record<string, string | string[]>): boolean {
  return (header(headers["content-type"]) ?? "").startsWith("text/html");
}

/**
 * Whether pages show the polling banner now, read from the archive at most once a `ttlMs`: the
 * pollers record their outcomes there, and a page kept with the banner is not served once a poll
 * succeeded (nor one kept without it once every poll fails).
 */
export function pollingNoticeProbe(read: () => Promise<string | null>, ttlMs = 1_000, now: () => number = Date.now): () => Promise<boolean> {
  let known: { at: number; shown: Promise<boolean> } | null = null;
  return () => {
    if (known === null || now() - known.at >= ttlMs) {
      const shown = read().then((notice) => notice !== null);
      known = { at: now(), shown };
      // A failed read is not kept: the next request tries again.
      shown.catch(() => {
        if (known?.shown === shown) known = null;
      });
    }
    return known.shown;
  };
}

/**
 * Headers that belong to one answer, never to the page: each reader gets their own (the rate
 * limit's are the requester's standing, HSTS follows how the request came in; both are set before
 * the cache answers), so a kept page holds none.
 */
const UNKEPT_HEADERS: ReadonlySet<string> = new Set(["x-redline-cache", "date", "ratelimit", "ratelimit-policy", "strict-transport-security"]);

/**
 * Serve from the cache, or let `render` answer and keep what it sent when that was a 200. A kept
 * page whose polling banner differs from what `notice` says pages show now is rendered again.
 */
export function withPageCache(render: RequestHandler, cache: PageCache, changes: ArchiveChangeFeed, notice: () => Promise<boolean> = async () => false): RequestHandler {
  return async (req, res) => {
    const key = cacheKeyFor(req);
    if (key === null) {
      res.setHeader("x-redline-cache", "bypass");
      await render(req, res);
      return;
    }
    // Without the archive's changes, or the pollers' outcomes, no kept page can be trusted, but a fresh render may still succeed.
    const renderUncached = async (what: string, error: unknown) => {
      console.error(`web: page cache: unable to read ${what}: ${errorMessage(error)}; rendering ${redactSecrets(req.url ?? "")} uncached`);
      res.setHeader("x-redline-cache", "bypass");
      await render(req, res);
    };
    const noticeRead = notice().then((shown) => ({ shown }), (error: unknown) => ({ error }));
    let renderedAt: number;
    try {
      renderedAt = await cache.catchUp(changes);
    } catch (error) {
      await renderUncached("the archive's changes", error);
      return;
    }
    const noticeState = await noticeRead;
    if ("error" in noticeState) {
      await renderUncached("the pollers' outcomes", noticeState.error);
      return;
    }
    const noticeShown = noticeState.shown;
    const found = cache.get(key);
    const kept = found?.pollingNotice === undefined || found.pollingNotice === noticeShown ? found : undefined;
    const address = new URL(req.url ?? "/", "http://x");
    const scope = pageScopeOf(address.pathname, address.searchParams);
    if (kept && clientHasIt(req, kept)) {
      const { "content-type": _type, "content-length": _length, "content-encoding": _encoding, ...validators } = freshCopy(kept, false).headers;
      res.writeHead(304, { ...validators, "x-redline-cache": "hit" }).end();
      return;
    }
    if (kept) {
      send(res, freshCopy(kept, true), "hit");
      return;
    }
    res.setHeader("x-redline-cache", "miss");
    // Rendered in full so the answer can be kept; this one reader gets a 200 instead of a 304.
    delete req.headers["if-none-match"];
    delete req.headers["if-modified-since"];
    // Kept uncompressed, so each reader's copy can get its own nonce.
    delete req.headers["accept-encoding"];
    const chunks: Buffer[] = [];
    const write = res.write.bind(res) as (chunk: unknown, ...rest: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => http.ServerResponse;
    const keep = (chunk: unknown, encoding: unknown) => {
      if (typeof chunk === "string") chunks.push(Buffer.from(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8"));
      else if (chunk instanceof Uint8Array) chunks.push(Buffer.from(chunk));
    };
    res.write = ((chunk: unknown, ...rest: unknown[]) => {
      keep(chunk, rest[0]);
      return write(chunk, ...rest);
    }) as typeof res.write;
    res.end = ((...args: unknown[]) => {
      if (args[0] !== undefined && typeof args[0] !== "function") keep(args[0], args[1]);
      const headers = res.getHeaders();
      if (res.statusCode === 200 && headers["set-cookie"] === undefined) {
        const kept: Record<string, string | string[]> = {};
        for (const [name, value] of Object.entries(headers)) {
          if (value !== undefined && !UNKEPT_HEADERS.has(name)) kept[name] = typeof value === "number" ? String(value) : value;
        }
        const body = Buffer.concat(chunks);
        const nonce = nonceOf(header(kept["content-security-policy"]) ?? "");
        // Kept as rendered: the render read the banner's state itself, maybe after `noticeShown` was read.
        const pollingNotice = isHtml(kept) ? body.includes(NOTICE_MARK) : undefined;
        cache.set(key, scope, renderedAt, { status: 200, headers: kept, body, nonce, bodyAroundNonce: nonce === null ? undefined : cutAroundNonce(body, nonce), pollingNotice });
      }
      return end(...args);
    }) as typeof res.end;
    await render(req, res);
  };
}

/**
 * An address whose path cannot be decoded names nothing: a 400, answered before anything reads the
 * path (webhooks, the rate limit, the API, pages), where a route decoding it would fail with a 500.
 * The API's addresses get a problem document, the site's its 400 page.
 */
function answerMalformedAddress(req: http.IncomingMessage, res: http.ServerResponse): boolean {
  const pathname = (req.url ?? "/").split("?")[0] ?? "/";
  try {
    decodeURIComponent(pathname);
    return false;
  } catch {
    const nonce = newNonce();
    const detail = "the address holds a malformed percent escape";
    const api = pathname.startsWith("/api/");
    const body = api ? `${JSON.stringify(problemBody(400, detail))}\n` : renderBadRequestPage(detail, "/", nonce, builtStylesheets());
    const type = api ? "application/problem+json; charset=utf-8" : "text/html; charset=utf-8";
    res.writeHead(400, { ...securityHeaders(nonce), "content-type": type, "cache-control": "no-store" });
    res.end(req.method === "HEAD" ? undefined : body);
    return true;
  }
}

/** A request address as it may be logged: a webhook's secret path segment never is. */
export function redactSecrets(url: string): string {
  return url.replace(/^(\/api\/v1\/hooks\/[^/?]+\/)[^/?]+/, "$1[secret]").replace(/^(\/unsubscribe\?.*\bt=)[^&]+/, "$1[secret]");
}

export interface WebServer {
  server: http.Server;
  /** The threads rendering archive pages beside this one (0: this one renders them). */
  pageWorkers: number;
  /** How searches run, and their budget. */
  searches: string;
  close(): Promise<void>;
}

/** Next.js (built into REDLINE_NEXT_DIST_DIR or .next) behind the page cache, listening. */
export async function startWebServer(options: { host: string; port: number; db?: RedlineDb; dbFile?: string; cacheBytes?: number }): Promise<WebServer> {
  const env = readEnv();
  const db = options.db ?? getServerDb();
  const location = options.dbFile ?? databaseLocation(env);
  // Started once the archive is open and migrated (getServerDb did it): each worker opens it read-only.
  const workers = env.REDLINE_PAGE_WORKERS ?? Math.max(1, Math.min(4, os.availableParallelism() - 1));
  const pool = workers > 0 ? createArchivePagePool({ location, size: workers, log: (line) => console.error(`web: ${line}`) }) : null;
  const searches = startWebSearches({ location, db, threads: env.REDLINE_SEARCH_WORKERS, budgetMs: env.REDLINE_SEARCH_TIMEOUT_MS, log: (line) => console.error(`web: ${line}`) });
  const uninstallSearches = searches ? installSearchRunner(db, searches.runner) : () => {};
  const app = next({ dev: false, dir: ROOT, hostname: options.host, port: options.port });
  await Promise.all([app.prepare(), pool?.ready, searches?.ready]);
  const handle = app.getRequestHandler();
  const cacheBytes = options.cacheBytes ?? env.REDLINE_PAGE_CACHE_MB * 1024 * 1024;
  const renderHere: ArchivePageRenderer = (pathname, search, now) => renderArchivePage(db, pathname, builtStylesheets(), now, search);
  const renderPage = pool ? pooledRenderer(pool, builtStylesheets, renderHere) : renderHere;
  const render: RequestHandler = async (req, res) => {
    // Refused before anything renders while the searches are full: a flood of them costs next to nothing.
    if (searches && answerSearchesBusy(searches.runner, env.REDLINE_SEARCH_TIMEOUT_MS, builtStylesheets, req, res)) return;
    try {
      if (await answerArchivePage(renderPage, req, res)) return;
      if (await answerSearchPage(db, builtStylesheets(), req, res)) return;
    } catch (error) {
      // Next renders the same page, or its error page, and the failure is in the log.
      console.error(`web: ${redactSecrets(req.url ?? "")}: ${error instanceof Error ? error.stack ?? error.message : String(error)}; answered by Next`);
      if (res.headersSent) return;
    }
    await handle(req, res);
  };
  const handler = cacheBytes > 0
    ? withPageCache(render, new PageCache({ maxBytes: cacheBytes, maxEntryBytes: MAX_ENTRY_BYTES, ttlMs: TTL_MS }), {
      position: () => getArchiveChangePosition(db),
      since: (seq, limit) => listArchiveChangesSince(db, seq, limit),
    }, pollingNoticeProbe(() => readPollingNotice(db)))
    : render;
  const probe = createReadinessProbe(location);
  const trust = trustProxies(env.REDLINE_TRUSTED_PROXIES);
  const limited = createClientRateLimit({ ratePerSecond: env.REDLINE_RATE_LIMIT_PER_SECOND, burst: env.REDLINE_RATE_LIMIT_BURST, trust });
  const failures = createFailureLimit(
    { burst: env.REDLINE_FAILED_ATTEMPT_BURST, intervalSeconds: env.REDLINE_FAILED_ATTEMPT_INTERVAL_SECONDS, trust },
    (line) => console.error(`web: ${line}`),
  );
  const telemetry = new ThrottleTelemetry(() => db, env.REDLINE_ALERT_INTERVAL_SECONDS * 1000, createAlertSender(env.REDLINE_ALERT_WEBHOOK_URL));
  const flushTelemetry = (after: string) => {
    telemetry.flush().catch((error: unknown) => console.error(`web: ${errorMessage(error)}; ${after}`));
  };
  const flushing = setInterval(() => flushTelemetry("kept for the next flush"), 1_000);
  flushing.unref();
  const pinger = createWebSubPinger(() => db, env, (line) => console.error(`web: ${line}`));
  const hooks = createHookHandler({
    db: () => db, telemetry, settings: hookSettings(env), failures,
    ...(pinger ? { onVersionsRecorded: (captureId: number) => pinger.published(captureId) } : {}),
  });
  const server = http.createServer((req, res) => {
    dropUntrustedForwarding(req, trust);
    // Every answer's floor, whoever writes it (health checks, webhooks, errors, static misses); pages raise it.
    for (const [name, value] of Object.entries(baselineHeaders(routedPathname(req.url ?? "/"), servedOverHttps(env.REDLINE_PUBLIC_URL, req.headers["x-forwarded-proto"])))) {
      res.setHeader(name, value);
    }
    const answer = async () => {
      if (answerMalformedAddress(req, res)) return;
      // Checked before awaiting: every other request would pay for the await.
      if (isHealthCheck(req) && (await answerHealth(req, res, () => probe.check()))) return;
      // Webhooks have budgets of their own, before the per-client limit of the public API.
      if (await hooks(req, res)) return;
      if (failures.guardSignIn(req, res)) return;
      if (limited(req, res)) return;
      await handler(req, res);
    };
    answer().catch((error: unknown) => {
      console.error(`web: ${req.method} ${redactSecrets(req.url ?? "")}: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain; charset=utf-8" });
      res.end("Internal error");
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      // Before the first request: without REDLINE_PUBLIC_URL, links name this address, never a request's Host.
      const bound = server.address();
      recordListeningOrigin(linkOrigin(undefined, options.host, typeof bound === "object" && bound ? bound.port : options.port));
      resolve();
    });
  });
  return {
    server,
    pageWorkers: pool?.size ?? 0,
    searches: searches?.description ?? "searches run on the server's thread without a budget (REDLINE_SEARCH_WORKERS=0)",
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
      probe.close();
      clearInterval(flushing);
      flushTelemetry(`the counts of ${telemetry.unflushedScopes} scopes are lost`);
      app.close().catch((error: unknown) => console.error(`web: closing Next.js failed: ${errorMessage(error)}`));
      pool?.close().catch((error: unknown) => console.error(`web: stopping the page workers failed: ${errorMessage(error)}`));
      uninstallSearches();
      searches?.close().catch((error: unknown) => console.error(`web: stopping the searches failed: ${errorMessage(error)}`));
    }),
  };
}

async function main(): Promise<void> {
  const env = readEnv();
  const host = process.env.HOST ?? "127.0.0.1";
  const web = await startWebServer({ host, port: env.PORT }).catch((error: unknown) => {
    const failure = describeListenFailure(error, host, env.PORT);
    if (failure === null) throw error;
    // Restarting cannot help: the supervisor stops instead of starting it again and again.
    console.error(`web: ${failure}`);
    process.exit(EXIT_CONFIG);
  });
  const workers = web.pageWorkers === 0 ? "on the server's thread" : `on ${web.pageWorkers} worker thread${web.pageWorkers === 1 ? "" : "s"}`;
  console.log(`web: incident, change and component pages are rendered ${workers} (REDLINE_PAGE_WORKERS)`);
  console.log(`web: ${web.searches}`);
  console.log(`web: listening on http://${host}:${env.PORT}`);
  if (!env.REDLINE_PUBLIC_URL) console.log(`web: REDLINE_PUBLIC_URL is not set: links in feeds and API answers name ${linkOrigin(undefined, host, env.PORT)}; set it to the address readers use`);
  // Closing flushes the throttle counts gathered since the last flush, so a stop loses none of them.
  const stop = () => void web.close().finally(() => process.exit(0));
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(`web: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
