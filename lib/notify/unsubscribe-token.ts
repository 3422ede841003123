/** The token in an unsubscribe link: an HMAC of the subscription's id keyed by its secret, so links cannot be guessed. */
import { createHmac, timingSafeEqual } from "node:crypto";

export function unsubscribeToken(subscriptionId: string, secret: string): string {
  return createHmac("sha256", secret).update(`unsubscribe:${subscriptionId}`).digest("base64url");
}

export function isUnsubscribeToken(subscriptionId: string, secret: string, token: string): boolean {
  const expected = Buffer.from(unsubscribeToken(subscriptionId, secret));
  const given = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export function unsubscribeUrl(origin: string, subscriptionId: string, secret: string): string {
  return `${origin}/unsubscribe?s=${encodeURIComponent(subscriptionId)}&t=${unsubscribeToken(subscriptionId, secret)}`;
}
