import { describe, expect, it, vi } from "vitest";
import type { ArchiveChange } from "@/db/queries/archive-changes";
import { type ArchiveChangeFeed, PageCache } from "@/server/page-cache";
import { pageScopeOf, type PageScope } from "@/server/page-scope";

const page = (text: string) => ({ status: 200, headers: { "content-type": "text/html" }, body: Buffer.from(text) });
const GLOBAL: PageScope = { kind: "global" };

function splitAddress(address: string): [string, URLSearchParams] {
  const url = new URL(address, "http://x");
  return [url.pathname, url.searchParams];
}

/** An archive_changes table in memory: `record` appends, as the triggers do. */
function changeLog(keep = 4_096) {
  let rows: ArchiveChange[] = [];
  let seq = 0;
  const feed: ArchiveChangeFeed = {
    position: async () => rows.at(-1)?.seq ?? seq,
    since: async (after, limit) => rows.filter((r) => r.seq > after).slice(0, limit),
  };
  const record = (vendorSlug: string | null, providerId: string | null = null, kinds: string[] | null = null) => {
    seq += 1;
    rows = [...rows, { seq, vendorSlug, providerId, kinds }].slice(-keep);
  };
  return { feed, record };
}

describe("page cache", () => {
  it("keeps another vendor's incident page when a vendor's version is recorded, and evicts what shows it", async () => {
    const { feed, record } = changeLog();
    const cache = new PageCache({ maxBytes: 100_000, maxEntryBytes: 1_000, ttlMs: 60_000 });
    const at = await cache.catchUp(feed);
    const kept = ["/vendors/a/incidents/1", "/vendors/b/incidents/1", "/vendors/b/incidents/2", "/vendors/b/changes", "/vendors/a/feed.atom", "/", "/feed.atom", "/kinds/postmortem/feed.json"];
    for (const path of kept) cache.set(path, pageScopeOf(path), at, page(path));
    record("b", "1");
    await cache.catchUp(feed);
    const still = kept.filter((path) => cache.get(path) !== undefined);
    expect(still).toEqual(["/vendors/a/incidents/1", "/vendors/b/incidents/2", "/vendors/a/feed.atom"]);
    expect(cache.evictions).toBe(5);
  });

  it("keeps the kind feeds of other kinds when a version is recorded, and evicts those of its kinds", async () => {
    const { feed, record } = changeLog();
    const cache = new PageCache({ maxBytes: 100_000, maxEntryBytes: 1_000, ttlMs: 60_000 });
    const kept = [
      "/kinds/update-edited/feed.rss", "/kinds/postmortem-published/feed.atom", "/kinds/postmortem-published/feed.json?kind=update-edited",
      "/vendors/b/kinds/update-edited/feed.json", "/vendors/b/kinds/postmortem-published/feed.rss", "/vendors/a/kinds/update-edited/feed.atom",
    ];
    const keep = async () => {
      const at = await cache.catchUp(feed);
      for (const path of kept) cache.set(path, pageScopeOf(...splitAddress(path)), at, page(path));
    };
    const still = () => kept.filter((path) => cache.get(path) !== undefined);
    await keep();
    record("b", "1", ["update-edited", "status-changed"]);
    await cache.catchUp(feed);
    expect(still()).toEqual(["/kinds/postmortem-published/feed.atom", "/vendors/b/kinds/postmortem-published/feed.rss", "/vendors/a/kinds/update-edited/feed.atom"]);
    await keep();
    // A version whose kinds are unknown, or a change to a vendor (its name is in every item), may be in any of them.
    record("b", "1");
    await cache.catchUp(feed);
    expect(still()).toEqual(["/vendors/a/kinds/update-edited/feed.atom"]);
    await keep();
    record("a");
    await cache.catchUp(feed);
    expect(still()).toEqual(["/vendors/b/kinds/update-edited/feed.json", "/vendors/b/kinds/postmortem-published/feed.rss"]);
  });

  it("does not keep a kind feed rendered before a version of its kind, and keeps one of another kind", async () => {
    const { feed, record } = changeLog();
    const cache = new PageCache({ maxBytes: 100_000, maxEntryBytes: 1_000, ttlMs: 60_000 });
    const startedAt = await cache.catchUp(feed);
    record("b", "1", ["postmortem-published"]);
    await cache.catchUp(feed);
    expect(cache.set("/kinds/postmortem-published/feed.rss", pageScopeOf("/kinds/postmortem-published/feed.rss"), startedAt, page("old"))).toBe(false);
    expect(cache.set("/kinds/update-edited/feed.rss", pageScopeOf("/kinds/update-edited/feed.rss"), startedAt, page("b"))).toBe(true);
  });

  it("evicts every page of a vendor that was renamed or removed, and everything for a change it cannot place", async () => {
    const { feed, record } = changeLog();
    const cache = new PageCache({ maxBytes: 100_000, maxEntryBytes: 1_000, ttlMs: 60_000 });
    const paths = ["/vendors/a/incidents/1", "/vendors/a/incidents/1/versions/2", "/vendors/b/incidents/1", "/api/v1/vendors/b/incidents/1"];
    for (const path of paths) cache.set(path, pageScopeOf(path), await cache.catchUp(feed), page(path));
    record("a");
    await cache.catchUp(feed);
    expect(paths.filter((path) => cache.get(path) !== undefined)).toEqual(["/vendors/b/incidents/1", "/api/v1/vendors/b/incidents/1"]);
    record(null);
    await cache.catchUp(feed);
    expect(cache.size).toBe(0);
  });

  it("does not keep a render that began before a change that concerns it", async () => {
    const { feed, record } = changeLog();
    const cache = new PageCache({ maxBytes: 100_000, maxEntryBytes: 1_000, ttlMs: 60_000 });
    const startedAt = await cache.catchUp(feed);
    // A poll records a version of b/1 while both pages render; another reader's request catches up.
    record("b", "1");
    await cache.catchUp(feed);
    expect(cache.set("/vendors/b/incidents/1", pageScopeOf("/vendors/b/incidents/1"), startedAt, page("old"))).toBe(false);
    expect(cache.set("/vendors/a/incidents/1", pageScopeOf("/vendors/a/incidents/1"), startedAt, page("a"))).toBe(true);
  });

  it("applies each change once when two requests catch up at the same time, keeping what the change does not concern", async () => {
    const { feed, record } = changeLog();
    const cache = new PageCache({ maxBytes: 100_000, maxEntryBytes: 1_000, ttlMs: 60_000 });
    const at = await cache.catchUp(feed);
    for (const path of ["/vendors/a/incidents/1", "/vendors/b/incidents/1"]) cache.set(path, pageScopeOf(path), at, page(path));
    record("b", "1");
    expect(await Promise.all([cache.catchUp(feed), cache.catchUp(feed)])).toEqual([at + 1, at + 1]);
    expect(cache.get("/vendors/a/incidents/1")).toBeDefined();
    expect(cache.get("/vendors/b/incidents/1")).toBeUndefined();
    expect(cache.evictions).toBe(1);
  });

  it("empties itself when it fell further behind than the archive keeps changes", async () => {
    const { feed, record } = changeLog(3);
    const cache = new PageCache({ maxBytes: 100_000, maxEntryBytes: 1_000, ttlMs: 60_000 });
    record("b", "1");
    const at = await cache.catchUp(feed);
    cache.set("/vendors/a/incidents/1", pageScopeOf("/vendors/a/incidents/1"), at, page("a"));
    for (let i = 0; i < 5; i += 1) record("b", "1");
    expect(await cache.catchUp(feed)).toBe(6);
    expect(cache.get("/vendors/a/incidents/1")).toBeUndefined();
    // Nor can it judge a render begun before the gap.
    expect(cache.set("/vendors/a/incidents/1", pageScopeOf("/vendors/a/incidents/1"), at, page("a"))).toBe(false);
  });

  it("expires pages after the time-to-live so relative times stay close to true", () => {
    let now = 0;
    const cache = new PageCache({ maxBytes: 10_000, maxEntryBytes: 1_000, ttlMs: 60_000, now: () => now });
    cache.set("/a", GLOBAL, 0, page("x"));
    now = 59_000;
    expect(cache.get("/a")).toBeDefined();
    now = 61_000;
    expect(cache.get("/a")).toBeUndefined();
  });

  it("evicts the least recently used pages to stay within its byte bound", () => {
    const cache = new PageCache({ maxBytes: 300, maxEntryBytes: 300, ttlMs: 60_000 });
    cache.set("/a", GLOBAL, 0, page("a".repeat(100)));
    cache.set("/b", GLOBAL, 0, page("b".repeat(100)));
    cache.get("/a");
    cache.set("/c", GLOBAL, 0, page("c".repeat(100)));
    expect(cache.totalBytes).toBeLessThanOrEqual(300);
    expect(cache.get("/b")).toBeUndefined();
    expect(cache.get("/a")).toBeDefined();
    expect(cache.get("/c")).toBeDefined();
  });

  it("does not keep a page larger than the per-entry bound", () => {
    const cache = new PageCache({ maxBytes: 10_000, maxEntryBytes: 100, ttlMs: 60_000 });
    expect(cache.set("/big", GLOBAL, 0, page("x".repeat(200)))).toBe(false);
    expect(cache.get("/big")).toBeUndefined();
    expect(cache.totalBytes).toBe(0);
  });

  it("reads the archive's changes one at a time; a catch-up asked during a read waits for the next, which all such share", async () => {
    const { feed, record } = changeLog();
    let reads = 0;
    let open = 0;
    let most = 0;
    const held: Array<() => void> = [];
    // A database that answers only when the test lets it.
    const slow: ArchiveChangeFeed = {
      position: async () => {
        reads += 1;
        open += 1;
        most = Math.max(most, open);
        const at = await feed.position();
        await new Promise<void>((resolve) => held.push(resolve));
        open -= 1;
        return at;
      },
      since: (after, limit) => feed.since(after, limit),
    };
    // Lets the one read waiting for its answer have it.
    const answer = async () => {
      await vi.waitFor(() => expect(held).toHaveLength(1));
      held.shift()?.();
    };
    const cache = new PageCache({ maxBytes: 100_000, maxEntryBytes: 1_000, ttlMs: 60_000 });
    const first = cache.catchUp(slow);
    await vi.waitFor(() => expect(held).toHaveLength(1));
    // Recorded after the first read looked, before it answered: only a later read sees it.
    record("b", "1");
    const waiting = Array.from({ length: 10 }, () => cache.catchUp(slow));
    await answer();
    expect(await first).toBe(0);
    await answer();
    expect(await Promise.all(waiting)).toEqual(Array.from({ length: 10 }, () => 1));
    expect({ reads, most }).toEqual({ reads: 2, most: 1 });
    // Nothing under way: the next catch-up reads at once.
    const later = cache.catchUp(slow);
    await answer();
    expect(await later).toBe(1);
    expect(reads).toBe(3);
  });
});
