import Parser from "rss-parser";
import { parseDocument, DomUtils } from "htmlparser2";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { RedlineDb } from "@/db/client";
import { saveWatchlist } from "@/db/notifications/watchlists";
import { FEED_FORMATS, type FeedFormat } from "@/lib/render/feed";
import { type FeedLevel, feedRoute } from "@/server/feeds/feed-route";
import { archiveAcmeLifecycle } from "@/tests/support/acme-archive";
import { freshDatabase } from "@/tests/support/database";
import { makeTestPlatform } from "@/tests/support/test-platform";

const ORIGIN = "http://redline.test";
const HUB = "https://hub.example.org/";
let db: RedlineDb;

beforeAll(async () => {
  db = await freshDatabase();
  await archiveAcmeLifecycle(db, makeTestPlatform({ kind: "recent", limit: 25 }));
  await saveWatchlist(db, { name: "team", vendors: ["acme"], components: [] });
});

afterEach(() => {
  delete process.env.REDLINE_WEBSUB_HUB;
});

const LEVELS: { level: FeedLevel; params: Record<string, string>; path: string }[] = [
  { level: "all", params: {}, path: "/feed" },
  { level: "vendor", params: { slug: "acme" }, path: "/vendors/acme/feed" },
  { level: "incident", params: { slug: "acme", key: "k3x9" }, path: "/vendors/acme/incidents/k3x9/feed" },
  { level: "watchlist", params: { name: "team" }, path: "/watch/team/feed" },
];

async function get(level: FeedLevel, format: FeedFormat, params: Record<string, string>, path: string) {
  return feedRoute(level, format, () => db)(new Request(`${ORIGIN}${path}.${format}`), { params: Promise.resolve(params) });
}

/** The hub and self links a feed document names, in its own format. */
function linksOf(format: FeedFormat, body: string): { hub: string[]; self: string[] } {
  if (format === "json") {
    const feed = JSON.parse(body) as { feed_url: string; hubs?: { type: string; url: string }[] };
    return { hub: (feed.hubs ?? []).filter((h) => h.type === "WebSub").map((h) => h.url), self: [feed.feed_url] };
  }
  const doc = parseDocument(body, { xmlMode: true });
  const container = DomUtils.findOne((e) => e.name === (format === "atom" ? "feed" : "channel"), doc.children);
  const name = format === "atom" ? "link" : "atom:link";
  const links = DomUtils.findAll((e) => e.name === name, container?.children ?? []).filter((e) => e.parent === container);
  const rel = (r: string) => links.filter((l) => l.attribs.rel === r).map((l) => l.attribs.href ?? "");
  return { hub: rel("hub"), self: rel("self") };
}

describe("feeds with REDLINE_WEBSUB_HUB set", () => {
  for (const { level, params, path } of LEVELS) {
    for (const format of FEED_FORMATS) {
      it(`${path}.${format} names the hub and itself in the document and in the Link header`, async () => {
        process.env.REDLINE_WEBSUB_HUB = HUB;
        const response = await get(level, format, params, path);
        expect(response.status).toBe(200);
        const body = await response.text();
        const self = `${ORIGIN}${path}.${format}`;
        expect(linksOf(format, body)).toEqual({ hub: [HUB], self: [self] });
        expect(response.headers.get("link")).toBe(`<${HUB}>; rel="hub", <${self}>; rel="self"`);
        if (format !== "json") expect((await new Parser().parseString(body)).items.length).toBeGreaterThan(0);
      });
    }
  }

  it("give the feed a new ETag when the hub changes, so a cached copy naming the old hub is replaced", async () => {
    const without = (await get("all", "atom", {}, "/feed")).headers.get("etag");
    process.env.REDLINE_WEBSUB_HUB = HUB;
    const withHub = (await get("all", "atom", {}, "/feed")).headers.get("etag");
    expect(withHub).not.toBe(without);
  });
});

describe("feeds without a hub", () => {
  for (const format of FEED_FORMATS) {
    it(`advertise none in ${format}, and send no Link header`, async () => {
      const response = await get("vendor", format, { slug: "acme" }, "/vendors/acme/feed");
      const body = await response.text();
      expect(linksOf(format, body).hub).toEqual([]);
      expect(body).not.toContain("hub");
      expect(response.headers.get("link")).toBeNull();
    });
  }

  it("refuse a hub that is not an http(s) URL, naming the setting", async () => {
    process.env.REDLINE_WEBSUB_HUB = "ftp://hub.example.org/";
    await expect(get("all", "atom", {}, "/feed")).rejects.toThrow(/REDLINE_WEBSUB_HUB/);
  });
});
