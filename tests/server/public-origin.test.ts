import { afterEach, describe, expect, it, vi } from "vitest";
import { publicOrigin } from "@/server/http/public-origin";

afterEach(() => vi.unstubAllEnvs());

describe("public origin", () => {
  it("is the configured public address when there is one", () => {
    vi.stubEnv("REDLINE_PUBLIC_URL", "https://redline.example.org/some/path");
    expect(publicOrigin(new Request("http://localhost:3000/feed.atom", { headers: { host: "10.0.0.5:3000" } }))).toBe("https://redline.example.org");
  });

  it("is the Host the request was sent to, and ignores a Host that is not a host name", () => {
    vi.stubEnv("REDLINE_PUBLIC_URL", "");
    expect(publicOrigin(new Request("http://localhost:3000/feed.atom", { headers: { host: "127.0.0.1:3000" } }))).toBe("http://127.0.0.1:3000");
    expect(publicOrigin(new Request("http://localhost:3000/feed.atom", { headers: { host: "evil.test/<x>" } }))).toBe("http://localhost:3000");
  });
});
