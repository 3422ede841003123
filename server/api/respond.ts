import { createHash, timingSafeEqual } from "node:crypto";
import type { z } from "zod";
import { readEnv } from "@/lib/env";
import { describeParamError, searchParamsToObject } from "@/lib/page-params";
import { isNotModified } from "@/server/http/conditional";
import { problem } from "@/server/http/problem";
import { publicOrigin } from "@/server/http/public-origin";
import { isSearchStopped } from "@/server/search/runner";

/** Reads are open to any origin; the validators and paging headers are readable by scripts. */
export const CORS_HEADERS = {
  "access-control-allow-origin": "*",
  "access-control-expose-headers": "ETag, Last-Modified, Link, Location",
};
const READ_CACHE_CONTROL = "public, max-age=30";

function tagOf(body: string): string {
  return `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
}

/** A body as the answer to a GET: ETag from its bytes, 304 when the client has them already. */
export function answer(request: Request, body: string, contentType: string, extra: Record<string, string> = {}): Response {
  const etag = tagOf(body);
  const headers = { etag, "cache-control": READ_CACHE_CONTROL, ...CORS_HEADERS, ...extra };
  if (isNotModified(request, etag, null)) return new Response(null, { status: 304, headers });
  return new Response(body, { status: 200, headers: { "content-type": contentType, ...headers } });
}

export function answerJson(request: Request, value: unknown): Response {
  return answer(request, `${JSON.stringify(value, null, 2)}\n`, "application/json; charset=utf-8");
}

/** The answer to a write: never cached. */
export function answerWrite(status: number, value: unknown, headers: Record<string, string> = {}): Response {
  return new Response(`${JSON.stringify(value, null, 2)}\n`, { status, headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...headers } });
}

export function notFound(detail: string): Response {
  return problem(404, detail, { headers: CORS_HEADERS });
}

/** A list's `next` link: this request's address with the cursor of the next page; null at the end. */
export function nextLink(request: Request, cursor: string | null): string | null {
  if (cursor === null) return null;
  const url = new URL(request.url);
  const next = new URL(`${publicOrigin(request)}${url.pathname}`);
  for (const [k, v] of url.searchParams) if (k !== "cursor") next.searchParams.append(k, v);
  next.searchParams.set("cursor", cursor);
  return next.toString();
}

export function parseErrorFor(parameter: string, reason: string): Response {
  return problem(400, `${parameter}: ${reason}`, { parameter, headers: CORS_HEADERS });
}

export function badCursor(): Response {
  return parseErrorFor("cursor", "not a cursor from this API");
}

/** The query string checked against a route's schema: its data, or a 400 naming the parameter. */
export function parseQuery<T extends z.ZodType>(schema: T, request: Request): { data: z.infer<T> } | { error: Response } {
  const result = schema.safeParse(searchParamsToObject(new URL(request.url).searchParams));
  if (result.success) return { data: result.data };
  const issue = result.error.issues[0];
  const parameter = issue?.code === "unrecognized_keys" ? issue.keys[0] : issue?.path[0] === undefined ? undefined : String(issue.path[0]);
  return { error: problem(400, describeParamError(result.error), { parameter, headers: CORS_HEADERS }) };
}

function digest(value: string): Buffer {
  return createHash("sha256").update(value).digest();
}

/** Whether the request carries the operator token (compared in constant time); false when none is configured. */
export function isOperator(request: Request): boolean {
  const token = readEnv().REDLINE_OPERATOR_TOKEN;
  if (!token) return false;
  const presented = /^Bearer\s+(\S+)$/i.exec(request.headers.get("authorization") ?? "")?.[1];
  return presented !== undefined && timingSafeEqual(digest(presented), digest(token));
}

export function unauthorized(): Response {
  const detail = readEnv().REDLINE_OPERATOR_TOKEN
    ? "this operation needs the operator token: Authorization: Bearer <REDLINE_OPERATOR_TOKEN>"
    : "operator operations are off: no REDLINE_OPERATOR_TOKEN is configured";
  return problem(401, detail, { headers: { "www-authenticate": 'Bearer realm="redline"' } });
}

type Handler<P> = (request: Request, params: P) => Response | Promise<Response>;

/** A route handler that answers an unexpected failure with a 500 problem, logged with its cause. */
export function apiHandler<P>(handler: Handler<P>) {
  return async (request: Request, context: { params: Promise<P> }): Promise<Response> => {
    try {
      return await handler(request, await context.params);
    } catch (error) {
      // A search stopped at its budget, or refused while too many wait: the client is told, nothing failed.
      if (isSearchStopped(error)) return problem(503, error.message, { headers: { "retry-after": String(error.retryAfterSeconds) } });
      console.error(`api: ${request.method} ${new URL(request.url).pathname}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      return problem(500, "the server failed to answer; the error is in its log");
    }
  };
}

/** The answer to a CORS preflight: reads from anywhere, nothing else. */
export function preflight(): Response {
  return new Response(null, {
    status: 204,
    headers: { ...CORS_HEADERS, "access-control-allow-methods": "GET, HEAD, OPTIONS", "access-control-allow-headers": "If-None-Match, If-Modified-Since", "access-control-max-age": "86400" },
  });
}

/** The answer under /api/v1 where no route is: a problem a client can read, not the site's HTML 404 page. */
export function unknownRoute(request: Request): Response {
  const { pathname } = new URL(request.url);
  return notFound(`no API route at ${pathname.slice(0, 200)}: the routes are listed in /api/v1/openapi.json`);
}
