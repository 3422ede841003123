import { describe, expect, it } from "vitest";
import { PageCache } from "@/server/page-cache";

const page = (text: string) => ({ status: 200, headers: { "content-type": "text/html" }, body: Buffer.from(text) });

describe("page cache", () => {
  it("serves a page only at the archive revision it was rendered at", () => {
    const cache = new PageCache({ maxBytes: 10_000, maxEntryBytes: 1_000, ttlMs: 60_000 });
    cache.set("/a", "7", page("seven"));
    expect(cache.get("/a", "7")?.body.toString()).toBe("seven");
    expect(cache.get("/a", "8")).toBeUndefined();
    // A stale entry is dropped, not kept for a later revision that happens to match.
    expect(cache.get("/a", "7")).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it("expires pages after the time-to-live so relative times stay close to true", () => {
    let now = 0;
    const cache = new PageCache({ maxBytes: 10_000, maxEntryBytes: 1_000, ttlMs: 60_000, now: () => now });
    cache.set("/a", "1", page("x"));
    now = 59_000;
    expect(cache.get("/a", "1")).toBeDefined();
    now = 61_000;
    expect(cache.get("/a", "1")).toBeUndefined();
  });

  it("evicts the least recently used pages to stay within its byte bound", () => {
    const cache = new PageCache({ maxBytes: 300, maxEntryBytes: 300, ttlMs: 60_000 });
    cache.set("/a", "1", page("a".repeat(100)));
    cache.set("/b", "1", page("b".repeat(100)));
    cache.get("/a", "1");
    cache.set("/c", "1", page("c".repeat(100)));
    expect(cache.totalBytes).toBeLessThanOrEqual(300);
    expect(cache.get("/b", "1")).toBeUndefined();
    expect(cache.get("/a", "1")).toBeDefined();
    expect(cache.get("/c", "1")).toBeDefined();
  });

  it("does not keep a page larger than the per-entry bound", () => {
    const cache = new PageCache({ maxBytes: 10_000, maxEntryBytes: 100, ttlMs: 60_000 });
    expect(cache.set("/big", "1", page("x".repeat(200)))).toBe(false);
    expect(cache.get("/big", "1")).toBeUndefined();
    expect(cache.totalBytes).toBe(0);
  });
});
