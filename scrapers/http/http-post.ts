/**
 * One POST to a subscriber's target, with the limits any request to an outside address needs:
 * the address rules for vendor URLs (no private, loopback or link-local address unless allowed,
 * checked again after DNS), connect and response timeouts, no redirects followed. The notifier's
 * senders are handed this client; they reach no address any other way.
 */
import http from "node:http";
import https from "node:https";
import type { SendResult } from "@/lib/notify/send-result";
import { AddressPolicyError, checkUrlTarget } from "@/scrapers/http/address-policy";
import { guardedLookup, parseRetryAfter } from "@/scrapers/http/http-client";

export interface PostOptions {
  allowPrivate: boolean;
  connectTimeoutMs: number;
  responseTimeoutMs: number;
  userAgent: string;
}

/** Read at most this much of an answer: only its status matters, the rest shows in the log. */
const MAX_ANSWER_BYTES = 4_096;

/** The POST senders take, with these limits bound. */
export function createJsonPoster(options: PostOptions): (target: string, body: string, headers: Record<string, string>, signal: AbortSignal) => Promise<SendResult> {
  return (target, body, headers, signal) => postJson(target, body, headers, options, signal);
}

function postJson(target: string, body: string, headers: Record<string, string>, options: PostOptions, signal: AbortSignal): Promise<SendResult> {
  let url: URL;
  try {
    url = new URL(target);
    checkUrlTarget(url, options.allowPrivate);
  } catch (error) {
    const message = error instanceof AddressPolicyError ? error.message : `not a URL: ${(error as Error).message}`;
    return Promise.resolve({ outcome: "failed", statusCode: null, retryAfterMs: null, error: message });
  }
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(overall);
      request.destroy();
      resolve(result);
    };
    const retry = (error: string): SendResult => ({ outcome: "retry", statusCode: null, retryAfterMs: null, error });
    const transport = url.protocol === "https:" ? https : http;
    const request = transport.request(url, {
      method: "POST",
      headers: { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)), "user-agent": options.userAgent, ...headers },
      lookup: guardedLookup(options.allowPrivate),
      signal,
    });
    const overall = setTimeout(() => finish(retry(`no answer from ${url.host} within ${options.responseTimeoutMs} ms`)), options.responseTimeoutMs);
    request.on("socket", (socket) => {
      if (!socket.connecting) return;
      const timer = setTimeout(() => finish(retry(`could not connect to ${url.host} within ${options.connectTimeoutMs} ms`)), options.connectTimeoutMs);
      socket.once(url.protocol === "https:" ? "secureConnect" : "connect", () => clearTimeout(timer));
      socket.once("close", () => clearTimeout(timer));
    });
    request.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "EREDLINEBLOCKED") finish({ outcome: "failed", statusCode: null, retryAfterMs: null, error: error.message });
      else finish(retry(`${url.host}: ${error.message}`));
    });
    request.on("response", (response) => {
      const status = response.statusCode ?? 0;
      const chunks: Buffer[] = [];
      let size = 0;
      response.on("data", (chunk: Buffer) => {
        if (size < MAX_ANSWER_BYTES) chunks.push(chunk);
        size += chunk.length;
      });
      response.on("error", () => finish(retry(`${url.host} broke off its answer`)));
      response.on("end", () => {
        const text = Buffer.concat(chunks).subarray(0, 200).toString("utf8").replace(/\s+/g, " ").trim();
        const said = text ? `: ${text}` : "";
        if (status >= 200 && status < 300) finish({ outcome: "delivered", statusCode: status, retryAfterMs: null, error: null });
        else if (status === 410) finish({ outcome: "gone", statusCode: status, retryAfterMs: null, error: `${url.host} answered HTTP 410 Gone${said}` });
        else {
          const header = response.headers["retry-after"];
          const retryAfterMs = status === 429 || status === 503 ? parseRetryAfter(Array.isArray(header) ? header[0] : header) : null;
          finish({ outcome: "retry", statusCode: status, retryAfterMs, error: `${url.host} answered HTTP ${status}${said}` });
        }
      });
    });
    request.end(body);
  });
}
