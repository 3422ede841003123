import { afterEach, describe, expect, it, vi } from "vitest";
import { followableOrigin, linkOrigin } from "@/lib/link-origin";
import { listeningOrigin, recordListeningOrigin } from "@/server/http/listening-origin";
import { publicOrigin } from "@/server/http/public-origin";

const recorded = listeningOrigin();
afterEach(() => {
  vi.unstubAllEnvs();
  recordListeningOrigin(recorded ?? "");
});

describe("public origin", () => {
  it("is the configured public address when there is one", () => {
    vi.stubEnv("REDLINE_PUBLIC_URL", "https://redline.example.org/some/path");
    expect(publicOrigin(new Request("http://localhost:3000/feed.atom", { headers: { host: "10.0.0.5:3000" } }))).toBe("https://redline.example.org");
  });

  it("is the address the server listens on, never the Host a request names", () => {
    vi.stubEnv("REDLINE_PUBLIC_URL", "");
    for (const host of ["evil.example", "evil.example:4123", "10.0.0.5:4123", "evil.test/<x>"]) {
      expect(publicOrigin(new Request("http://127.0.0.1:4123/feed.atom", { headers: { host } })), host).toBe("http://127.0.0.1:4123");
    }
  });

  it("is the address the web server recorded as its own, in the request's scheme, whatever the Host and the request's URL", () => {
    vi.stubEnv("REDLINE_PUBLIC_URL", "");
    recordListeningOrigin(linkOrigin(undefined, "0.0.0.0", 4123));
    expect(publicOrigin(new Request("http://localhost:4123/feed.atom", { headers: { host: "evil.example" } }))).toBe("http://127.0.0.1:4123");
    expect(publicOrigin(new Request("https://localhost:4123/feed.atom", { headers: { host: "evil.example" } }))).toBe("https://127.0.0.1:4123");
  });

  it("without a recorded address, names a request URL's unspecified host by its loopback, keeping the scheme a trusted proxy reported", () => {
    vi.stubEnv("REDLINE_PUBLIC_URL", "");
    expect(publicOrigin(new Request("http://0.0.0.0:3000/feed.atom", { headers: { host: "evil.example" } }))).toBe("http://127.0.0.1:3000");
    expect(publicOrigin(new Request("https://[::]:3000/api/v1/changes", { headers: { host: "evil.example" } }))).toBe("https://[::1]:3000");
  });
});

describe("link origin", () => {
  it("names an unspecified listening address by its loopback, and brackets IPv6", () => {
    expect(linkOrigin(undefined, "0.0.0.0", 3000)).toBe("http://127.0.0.1:3000");
    expect(linkOrigin(undefined, "", 3000)).toBe("http://127.0.0.1:3000");
    expect(linkOrigin(undefined, "::", 8080)).toBe("http://[::1]:8080");
    expect(linkOrigin(undefined, "[::]", 8080)).toBe("http://[::1]:8080");
    expect(linkOrigin(undefined, "::1", 8080)).toBe("http://[::1]:8080");
    expect(linkOrigin(undefined, "fd00::5", 8080)).toBe("http://[fd00::5]:8080");
    expect(linkOrigin(undefined, "192.168.1.20", 3000)).toBe("http://192.168.1.20:3000");
    expect(linkOrigin(undefined, "archive.lan", 3000)).toBe("http://archive.lan:3000");
  });

  it("is the public URL's origin, whatever the listening address", () => {
    expect(linkOrigin("https://status.example.com/archive/", "0.0.0.0", 3000)).toBe("https://status.example.com");
  });

  it("keeps a listening URL's scheme and port, and names its unspecified host by the loopback", () => {
    expect(followableOrigin(new URL("http://0.0.0.0:3000/x"))).toBe("http://127.0.0.1:3000");
    expect(followableOrigin(new URL("https://[::]:443/x"))).toBe("https://[::1]");
    expect(followableOrigin(new URL("http://[fd00::5]:8080/x"))).toBe("http://[fd00::5]:8080");
    expect(followableOrigin(new URL("http://archive.lan:3000/x"))).toBe("http://archive.lan:3000");
  });
});
