import { createHmac, timingSafeEqual } from "node:crypto";
import { readEnv } from "@/lib/env";

/**
 * The operator's browser session: after signing in with the operator token, a cookie holding an
 * HMAC of the token (never the token itself) opens the operator pages. Changing the token ends
 * every session.
 */
export const OPERATOR_COOKIE = "redline_operator";

/** Where a wrong token is sent back to; the web server counts answers that go there as failed sign-ins. */
export const SIGN_IN_FAILED_LOCATION = "/operator?signin=failed";

function sessionValue(token: string): string {
  return createHmac("sha256", token).update("redline operator session v1").digest("base64url");
}

function equal(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The cookie value for a correct token; null for a wrong one or when no token is configured. */
export function openSession(presented: string): string | null {
  const token = readEnv().REDLINE_OPERATOR_TOKEN;
  if (!token || !equal(sessionValue(presented), sessionValue(token))) return null;
  return sessionValue(token);
}

export function isOperatorSession(cookie: string | undefined): boolean {
  const token = readEnv().REDLINE_OPERATOR_TOKEN;
  return Boolean(token && cookie && equal(cookie, sessionValue(token)));
}
