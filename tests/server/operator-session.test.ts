import { afterEach, describe, expect, it, vi } from "vitest";
import {
  endAllSessions, endSession, isOperatorSession, openSession, postedFromOwnPages, SESSION_LIFETIME_SECONDS,
} from "@/server/operator-session";
import { countRows, freshDatabase, queryRows } from "@/tests/support/database";

afterEach(() => vi.unstubAllEnvs());

const TOKEN = "the-operator-token-0123";
const signedInAt = new Date("2026-05-01T08:00:00.000Z");
const later = (seconds: number) => new Date(signedInAt.getTime() + seconds * 1000);

describe("operator session", () => {
  it("opens only with the configured token, with a new random id each time that is neither the token nor kept as such", async () => {
    vi.stubEnv("REDLINE_OPERATOR_TOKEN", TOKEN);
    const db = await freshDatabase();
    expect(await openSession(db, "a-wrong-token-0123456", signedInAt)).toBeNull();
    const first = await openSession(db, TOKEN, signedInAt);
    const second = await openSession(db, TOKEN, signedInAt);
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(second).not.toBe(first);
    expect(first).not.toContain(TOKEN);
    const kept = await queryRows<{ id_hash: string; token_fingerprint: string }>(db, "SELECT id_hash, token_fingerprint FROM operator_sessions");
    expect(kept).toHaveLength(2);
    expect(JSON.stringify(kept)).not.toContain(first);
    expect(JSON.stringify(kept)).not.toContain(TOKEN);
    expect(await isOperatorSession(db, first ?? undefined, signedInAt)).toBe(true);
    expect(await isOperatorSession(db, second ?? undefined, signedInAt)).toBe(true);
    expect(await isOperatorSession(db, "forged", signedInAt)).toBe(false);
    expect(await isOperatorSession(db, undefined, signedInAt)).toBe(false);
  });

  it("ends 12 hours after sign-in, however much it was used", async () => {
    vi.stubEnv("REDLINE_OPERATOR_TOKEN", TOKEN);
    const db = await freshDatabase();
    const session = (await openSession(db, TOKEN, signedInAt)) ?? undefined;
    expect(await isOperatorSession(db, session, later(SESSION_LIFETIME_SECONDS - 1))).toBe(true);
    expect(await isOperatorSession(db, session, later(SESSION_LIFETIME_SECONDS))).toBe(false);
    // The expired row is forgotten at the next sign-in.
    await openSession(db, TOKEN, later(SESSION_LIFETIME_SECONDS));
    expect(await countRows(db, "operator_sessions")).toBe(1);
  });

  it("signing out ends the session for a copied cookie too, and leaves the operator's other sessions open", async () => {
    vi.stubEnv("REDLINE_OPERATOR_TOKEN", TOKEN);
    const db = await freshDatabase();
    const laptop = (await openSession(db, TOKEN, signedInAt)) ?? undefined;
    const phone = (await openSession(db, TOKEN, signedInAt)) ?? undefined;
    const copied = laptop;
    await endSession(db, laptop);
    expect(await isOperatorSession(db, copied, later(1))).toBe(false);
    expect(await isOperatorSession(db, phone, later(1))).toBe(true);
    await endAllSessions(db);
    expect(await isOperatorSession(db, phone, later(1))).toBe(false);
  });

  it("ends every session when the token changes, and opens none when there is no token", async () => {
    vi.stubEnv("REDLINE_OPERATOR_TOKEN", TOKEN);
    const db = await freshDatabase();
    const session = (await openSession(db, TOKEN, signedInAt)) ?? undefined;
    vi.stubEnv("REDLINE_OPERATOR_TOKEN", "a-new-operator-token-456");
    expect(await isOperatorSession(db, session, later(1))).toBe(false);
    vi.stubEnv("REDLINE_OPERATOR_TOKEN", TOKEN);
    expect(await isOperatorSession(db, session, later(1))).toBe(true);
    vi.stubEnv("REDLINE_OPERATOR_TOKEN", "");
    expect(await openSession(db, "", signedInAt)).toBeNull();
    expect(await isOperatorSession(db, session, later(1))).toBe(false);
  });
});

describe("operator form posts", () => {
  const post = (headers: Record<string, string>) => new Request("http://redline.example/operator/sign-out", { method: "POST", headers: { host: "redline.example", ...headers } });

  it("are taken from the site's own pages and from clients that are no browser, refused from any other site", () => {
    expect(postedFromOwnPages(post({ origin: "http://redline.example" }))).toBe(true);
    expect(postedFromOwnPages(post({ "sec-fetch-site": "same-origin" }))).toBe(true);
    expect(postedFromOwnPages(post({ referer: "http://redline.example/operator" }))).toBe(true);
    expect(postedFromOwnPages(post({}))).toBe(true);
    expect(postedFromOwnPages(post({ origin: "https://evil.example" }))).toBe(false);
    expect(postedFromOwnPages(post({ origin: "null" }))).toBe(false);
    expect(postedFromOwnPages(post({ origin: "http://redline.example.evil.example" }))).toBe(false);
    expect(postedFromOwnPages(post({ "sec-fetch-site": "cross-site" }))).toBe(false);
    expect(postedFromOwnPages(post({ "sec-fetch-site": "same-site", referer: "http://redline.example/" }))).toBe(false);
    expect(postedFromOwnPages(post({ referer: "https://evil.example/page" }))).toBe(false);
  });

  it("are taken from the public address when a proxy sends another Host", () => {
    vi.stubEnv("REDLINE_PUBLIC_URL", "https://status-archive.example.org/");
    const proxied = (origin: string) => new Request("http://10.0.0.5:3000/operator/session", { method: "POST", headers: { host: "10.0.0.5:3000", origin } });
    expect(postedFromOwnPages(proxied("https://status-archive.example.org"))).toBe(true);
    expect(postedFromOwnPages(proxied("https://evil.example"))).toBe(false);
  });
});
