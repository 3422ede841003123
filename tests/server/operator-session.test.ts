import { afterEach, describe, expect, it, vi } from "vitest";
import { isOperatorSession, openSession } from "@/server/operator-session";

afterEach(() => vi.unstubAllEnvs());

describe("operator session", () => {
  it("opens only with the configured token, and the cookie is not the token", () => {
    vi.stubEnv("REDLINE_OPERATOR_TOKEN", "the-operator-token-0123");
    expect(openSession("a-wrong-token-0123456")).toBeNull();
    const session = openSession("the-operator-token-0123");
    expect(session).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(session).not.toContain("the-operator-token");
    expect(isOperatorSession(session ?? undefined)).toBe(true);
    expect(isOperatorSession("forged")).toBe(false);
    expect(isOperatorSession(undefined)).toBe(false);
  });

  it("ends every session when the token changes, and opens none when there is no token", () => {
    vi.stubEnv("REDLINE_OPERATOR_TOKEN", "the-operator-token-0123");
    const session = openSession("the-operator-token-0123") ?? undefined;
    vi.stubEnv("REDLINE_OPERATOR_TOKEN", "a-new-operator-token-456");
    expect(isOperatorSession(session)).toBe(false);
    vi.stubEnv("REDLINE_OPERATOR_TOKEN", "");
    expect(openSession("")).toBeNull();
    expect(isOperatorSession(session)).toBe(false);
  });
});
