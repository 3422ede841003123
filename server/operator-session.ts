import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { RedlineDb } from "@/db/client";
import {
  deleteAllOperatorSessions, deleteOperatorSession, insertOperatorSession, isLiveOperatorSession, pruneOperatorSessions,
} from "@/db/settings/operator-sessions";
import { readEnv } from "@/lib/env";
import { postedFromOwnSite } from "@/lib/same-origin";

/**
 * The operator's browser session: signing in with the operator token gives the browser a cookie
 * holding a random id, new at each sign-in; the database keeps a SHA-256 of it (so every web server
 * knows it), the token it was made with and when it ends. Signing out deletes it, so a copied cookie
 * ends with it; changing the token ends every session.
 */
export const OPERATOR_COOKIE = "redline_operator";

/** A session lasts 12 hours from sign-in, however busy: the operator signs in again after a working day. */
export const SESSION_LIFETIME_SECONDS = 12 * 60 * 60;

/** Where a wrong token is sent back to; the web server counts answers that go there as failed sign-ins. */
export const SIGN_IN_FAILED_LOCATION = "/operator?signin=failed";

/** Which token a session was made with, without keeping the token. */
function tokenFingerprint(token: string): string {
  return createHmac("sha256", token).update("redline operator session v2").digest("base64url");
}

function idHash(id: string): string {
  return createHash("sha256").update(id).digest("hex");
}

function digest(value: string): Buffer {
  return createHash("sha256").update(value).digest();
}

/** A new session's cookie value for a correct token; null for a wrong one or when no token is configured. */
export async function openSession(db: RedlineDb, presented: string, now = new Date()): Promise<string | null> {
  const token = readEnv().REDLINE_OPERATOR_TOKEN;
  if (!token || !timingSafeEqual(digest(presented), digest(token))) return null;
  const fingerprint = tokenFingerprint(token);
  await pruneOperatorSessions(db, fingerprint, now.toISOString());
  const id = randomBytes(32).toString("base64url");
  await insertOperatorSession(db, {
    idHash: idHash(id),
    tokenFingerprint: fingerprint,
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + SESSION_LIFETIME_SECONDS * 1000).toISOString(),
  });
  return id;
}

export async function isOperatorSession(db: RedlineDb, cookie: string | undefined, now = new Date()): Promise<boolean> {
  const token = readEnv().REDLINE_OPERATOR_TOKEN;
  if (!token || !cookie) return false;
  return isLiveOperatorSession(db, idHash(cookie), tokenFingerprint(token), now.toISOString());
}

/** Ends the session the cookie holds, in every browser that holds a copy of it. */
export async function endSession(db: RedlineDb, cookie: string | undefined): Promise<void> {
  if (cookie) await deleteOperatorSession(db, idHash(cookie));
}

/** Ends every operator session, on every device. */
export async function endAllSessions(db: RedlineDb): Promise<void> {
  await deleteAllOperatorSessions(db);
}

/** Whether a form post to the operator pages came from this site's own pages (not a page elsewhere driving the browser). */
export function postedFromOwnPages(request: Request): boolean {
  const h = request.headers;
  return postedFromOwnSite({ origin: h.get("origin"), secFetchSite: h.get("sec-fetch-site"), referer: h.get("referer"), host: h.get("host") }, readEnv().REDLINE_PUBLIC_URL);
}

/** The answer to a form posted from another site. */
export function crossOriginRefused(): Response {
  return new Response("Refused: this form was posted from another site.\n", { status: 403, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" } });
}
