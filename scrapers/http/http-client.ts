import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import zlib from "node:zlib";
import { withoutCredentials } from "@/lib/url-credentials";
import { checkUrlTarget, isPublicAddress } from "@/scrapers/http/address-policy";

export interface HttpClientOptions {
  /** Names Redline and where its operator can be reached. */
  userAgent: string;
  connectTimeoutMs: number;
  /** For the whole exchange, headers and body. */
  responseTimeoutMs: number;
  /** Decompressed; Google Cloud's incidents.json is several MB. */
  maxBodyBytes: number;
  maxRedirects: number;
  allowPrivate: boolean;
}

export interface ConditionalHeaders {
  etag?: string | null;
  lastModified?: string | null;
}

export interface HttpResponse {
  status: number;
  /** The URL that answered, after redirects. */
  url: string;
  notModified: boolean;
  body: Buffer;
  contentType: string | null;
  etag: string | null;
  lastModified: string | null;
}

export type HttpErrorKind = "timeout" | "connect" | "dns" | "too-large" | "redirects" | "status" | "blocked" | "protocol";

/** A failed fetch that says whether trying again soon can help, and when the server asked. */
export class HttpError extends Error {
  readonly kind: HttpErrorKind;
  readonly transient: boolean;
  readonly status: number | null;
  readonly retryAfterMs: number | null;
  constructor(kind: HttpErrorKind, message: string, init: { transient: boolean; status?: number; retryAfterMs?: number | null; cause?: unknown }) {
    super(message, { cause: init.cause });
    this.name = "HttpError";
    this.kind = kind;
    this.transient = init.transient;
    this.status = init.status ?? null;
    this.retryAfterMs = init.retryAfterMs ?? null;
  }
}

export interface HttpClient {
  get(url: string, conditional?: ConditionalHeaders, signal?: AbortSignal): Promise<HttpResponse>;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const TRANSIENT_STATUSES = new Set([408, 425, 429, 500, 502, 503, 504]);

/** Seconds or an HTTP date, as milliseconds from now; null when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** What answers a name: the system's resolver, or a test's. */
export type ResolveAll = (hostname: string, options: dns.LookupAllOptions, callback: (error: NodeJS.ErrnoException | null, addresses: dns.LookupAddress[]) => void) => void;

/** DNS lookup that refuses non-public answers, so a public name cannot lead to a private address. */
export function guardedLookup(allowPrivate: boolean, resolveAll: ResolveAll = dns.lookup): LookupFunction {
  return (hostname, options, callback) => {
    resolveAll(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) {
        callback(error, "", 0);
        return;
      }
      const usable = allowPrivate ? addresses : addresses.filter((a) => isPublicAddress(a.address));
      if (usable.length === 0) {
        const blocked = new Error(`${hostname} resolves only to private, loopback or link-local addresses`) as NodeJS.ErrnoException;
        blocked.code = "EREDLINEBLOCKED";
        callback(blocked, "", 0);
        return;
      }
      if (options.all) (callback as (e: null, a: dns.LookupAddress[]) => void)(null, usable);
      else {
        const first = usable[0];
        callback(null, first?.address ?? "", first?.family ?? 4);
      }
    });
  };
}

function decoderFor(encoding: string | undefined): NodeJS.ReadWriteStream | null {
  switch ((encoding ?? "").trim().toLowerCase()) {
    case "gzip":
    case "x-gzip":
      return zlib.createGunzip();
    case "deflate":
      return zlib.createInflate();
    case "br":
      return zlib.createBrotliDecompress();
    default:
      return null;
  }
}

function headerValue(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  return Array.isArray(value) ? (value[0] ?? null) : value;
}

/** An HTTP GET client with the limits a poller of untrusted servers needs. */
export function createHttpClient(options: HttpClientOptions): HttpClient {
  const lookup = guardedLookup(options.allowPrivate);
  const agents = {
    http: new http.Agent({ keepAlive: true, maxSockets: 4 }),
    https: new https.Agent({ keepAlive: true, maxSockets: 4 }),
  };

  function once(url: URL, conditional: ConditionalHeaders, deadline: number, signal?: AbortSignal): Promise<HttpResponse | { redirect: string }> {
    return new Promise((resolve, reject) => {
      const headers: Record<string, string> = {
        "user-agent": options.userAgent,
        accept: "application/json, application/atom+xml, application/rss+xml, application/xml;q=0.9, text/html;q=0.8, */*;q=0.5",
        "accept-encoding": "gzip, deflate, br",
      };
      if (conditional.etag) headers["if-none-match"] = conditional.etag;
      if (conditional.lastModified) headers["if-modified-since"] = conditional.lastModified;
      const transport = url.protocol === "https:" ? https : http;
      const request = transport.request(url, {
        method: "GET",
        headers,
        lookup,
        agent: url.protocol === "https:" ? agents.https : agents.http,
        signal,
      });
      let settled = false;
      const fail = (error: HttpError) => {
        if (settled) return;
        settled = true;
        clearTimeout(overall);
        request.destroy();
        reject(error);
      };
      const overall = setTimeout(
        () => fail(new HttpError("timeout", `no complete response from ${url.host} within ${options.responseTimeoutMs} ms`, { transient: true })),
        Math.max(0, deadline - Date.now()),
      );
      request.on("socket", (socket) => {
        if (!socket.connecting) return;
        const connectTimer = setTimeout(
          () => fail(new HttpError("connect", `could not connect to ${url.host} within ${options.connectTimeoutMs} ms`, { transient: true })),
          options.connectTimeoutMs,
        );
        socket.once(url.protocol === "https:" ? "secureConnect" : "connect", () => clearTimeout(connectTimer));
        socket.once("close", () => clearTimeout(connectTimer));
      });
      request.on("error", (error: NodeJS.ErrnoException) => {
        if (error.code === "EREDLINEBLOCKED") fail(new HttpError("blocked", error.message, { transient: false, cause: error }));
        else if (error.code === "ENOTFOUND" || error.code === "EAI_AGAIN") {
          fail(new HttpError("dns", `cannot resolve ${url.hostname} (${error.code})`, { transient: true, cause: error }));
        } else fail(new HttpError("connect", `${url.host}: ${error.message}`, { transient: true, cause: error }));
      });
      request.on("response", (response) => {
        const status = response.statusCode ?? 0;
        const location = headerValue(response.headers.location);
        if (REDIRECTS.has(status) && location) {
          response.resume();
          // Thrown here, in an event handler, a bad Location would take the whole poller down.
          const target = URL.parse(location, url);
          if (!target) {
            fail(new HttpError("protocol", `${url.host} redirected to an unreadable Location ${JSON.stringify(location)}`, { transient: false }));
            return;
          }
          settled = true;
          clearTimeout(overall);
          resolve({ redirect: target.toString() });
          return;
        }
        if (status === 304) {
          response.resume();
          settled = true;
          clearTimeout(overall);
          resolve({ status, url: url.toString(), notModified: true, body: Buffer.alloc(0), contentType: null, etag: headerValue(response.headers.etag), lastModified: headerValue(response.headers["last-modified"]) });
          return;
        }
        if (status < 200 || status >= 300) {
          response.resume();
          const retryAfterMs = parseRetryAfter(headerValue(response.headers["retry-after"]) ?? undefined);
          fail(new HttpError("status", `${url.host} answered HTTP ${status}`, { transient: TRANSIENT_STATUSES.has(status), status, retryAfterMs }));
          return;
        }
        const declared = Number(headerValue(response.headers["content-length"]) ?? "NaN");
        if (Number.isFinite(declared) && declared > options.maxBodyBytes && !response.headers["content-encoding"]) {
          fail(new HttpError("too-large", `${url.host} sent ${declared} bytes, over the ${options.maxBodyBytes}-byte cap`, { transient: false }));
          return;
        }
        const decoder = decoderFor(headerValue(response.headers["content-encoding"]) ?? undefined);
        const stream: NodeJS.ReadableStream = decoder ? response.pipe(decoder) : response;
        const chunks: Buffer[] = [];
        let size = 0;
        stream.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > options.maxBodyBytes) {
            fail(new HttpError("too-large", `${url.host} sent more than the ${options.maxBodyBytes}-byte cap`, { transient: false }));
            return;
          }
          chunks.push(chunk);
        });
        stream.on("error", (error: Error) => fail(new HttpError("protocol", `${url.host}: body could not be read: ${error.message}`, { transient: true, cause: error })));
        response.on("aborted", () => fail(new HttpError("protocol", `${url.host} closed the connection mid-body`, { transient: true })));
        stream.on("end", () => {
          if (settled) return;
          if (!response.complete) {
            fail(new HttpError("protocol", `${url.host} closed the connection mid-body`, { transient: true }));
            return;
          }
          settled = true;
          clearTimeout(overall);
          resolve({
            status,
            url: url.toString(),
            notModified: false,
            body: Buffer.concat(chunks),
            contentType: headerValue(response.headers["content-type"]),
            etag: headerValue(response.headers.etag),
            lastModified: headerValue(response.headers["last-modified"]),
          });
        });
      });
      request.end();
    });
  }

  return {
    async get(rawUrl, conditional = {}, signal) {
      const deadline = Date.now() + options.responseTimeoutMs;
      let url = new URL(rawUrl);
      for (let hop = 0; ; hop += 1) {
        try {
          checkUrlTarget(url, options.allowPrivate);
        } catch (error) {
          throw new HttpError("blocked", (error as Error).message, { transient: false, cause: error });
        }
        const result = await once(url, hop === 0 ? conditional : {}, deadline, signal);
        if (!("redirect" in result)) return result;
        if (hop >= options.maxRedirects) {
          throw new HttpError("redirects", `more than ${options.maxRedirects} redirects from ${withoutCredentials(rawUrl)}`, { transient: false });
        }
        url = new URL(result.redirect);
      }
    },
  };
}
