import Parser from "rss-parser";
import { beforeAll, describe, expect, it } from "vitest";
import type { RedlineDb } from "@/db/client";
import { ensureVendor } from "@/db/settings/vendors";
import { saveWatchlist } from "@/db/notifications/watchlists";
import { type FeedFormat, FEED_FORMATS } from "@/lib/render/feed";
import { ingestSnapshot } from "@/scrapers/ingest/ingest-snapshot";
import { getPlatform } from "@/scrapers/platforms";
import { type FeedLevel, feedRoute } from "@/server/feeds/feed-route";
import { freshDatabase } from "@/tests/support/database";
import { xmlErrors } from "@/tests/support/xml-errors";
import { archiveQuietDegradations, CALM_STEPS, OPEN_INCIDENT, quietVendor, recordSteps, T } from "@/tests/support/quiet-archive";

const ORIGIN = "http://redline.test";
const HOSTILE = `<script>alert("x")</script> & ]]> Frankfurt`;
let db: RedlineDb;

beforeAll(async () => {
  db = await freshDatabase();
  const { calm } = await archiveQuietDegradations(db);
  // An incident of Calm Cloud after its stretches: a version in the vendor's feed beside them.
  await recordSteps(db, calm, [{ at: T("12:00"), states: { fra: "major_outage", api: "degraded_performance" }, incidents: [OPEN_INCIDENT] }]);
  await saveWatchlist(db, { name: "frankfurt", vendors: [], components: ["calm:Frankfurt"] });
  const hostile = await ensureVendor(db, { slug: "hostile", name: "Hostile <b>Co</b>", platform: "statuspage-summary" });
  const platform = getPlatform("statuspage-summary");
  if (!platform) throw new Error("no platform");
  const body = (status: string) => Buffer.from(JSON.stringify({
    page: { id: "h", name: "Hostile", url: "https://status.hostile.test" },
    components: [{ id: "x", name: HOSTILE, status, updated_at: T("09:00"), group_id: null, group: false }], incidents: [], scheduled_maintenances: [],
  }));
  await ingestSnapshot(db, { vendor: hostile, platform, source: "summary.json", observedAt: T("09:00"), body: body("operational") });
  await ingestSnapshot(db, { vendor: hostile, platform, source: "summary.json", observedAt: T("09:30"), body: body("major_outage") });
});

async function get(level: FeedLevel, format: FeedFormat, params: Record<string, string>, query = "", database = db): Promise<Response> {
  return feedRoute(level, format, () => database)(new Request(`${ORIGIN}/x.${format}${query}`), { params: Promise.resolve(params) });
}

interface Item {
  id: string;
  title: string;
  link: string;
  published: string;
  updated: string;
  html: string;
}

async function items(format: FeedFormat, response: Response): Promise<Item[]> {
  expect(response.status).toBe(200);
  const body = await response.text();
  if (format === "json") {
    const feed = JSON.parse(body) as { items: { id: string; title: string; url: string; date_published: string; date_modified: string; content_html: string }[] };
    return feed.items.map((i) => ({ id: i.id, title: i.title, link: i.url, published: i.date_published, updated: i.date_modified, html: i.content_html }));
  }
  expect(xmlErrors(body)).toEqual([]);
  const feed = await new Parser({ customFields: { item: ["id", "updated"] } }).parseString(body);
  return feed.items.map((i) => {
    const extra = i as { id?: string; updated?: string; content?: string };
    return { id: String(format === "atom" ? extra.id : i.guid), title: i.title ?? "", link: i.link ?? "", published: i.isoDate ?? "", updated: extra.updated ?? "", html: String(extra.content ?? "") };
  });
}

const titles = (list: readonly Item[]) => list.map((i) => i.title);

describe("quiet degradations in feeds", () => {
  for (const format of FEED_FORMATS) {
    it(`/kinds/quiet-degradation/feed.${format} is valid and lists only quiet degradations, each linking the page as it was when it began`, async () => {
      const list = await items(format, await get("kind", format, { kind: "quiet-degradation" }));
      expect(list.length).toBe(8);
      for (const item of list) {
        expect(item.title).toMatch(/^(Calm Cloud|Busy CDN|Hostile Co): Quiet degradation: .+/);
        expect(item.link).toMatch(/^http:\/\/redline\.test\/vendors\/[a-z-]+\/status\?at=\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
        expect(item.id).toMatch(/^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      }
      expect(new Set(list.map((i) => i.id)).size).toBe(list.length);
      const dates = list.map((i) => Date.parse(i.published));
      expect(dates).toEqual([...dates].sort((a, b) => b - a));
    });
  }

  it("publishes a stretch when it began and marks it updated when it ended, under one id", async () => {
    const local = await freshDatabase();
    const calm = await quietVendor(local, "calm");
    await recordSteps(local, calm, CALM_STEPS);
    const ongoing = (await items("atom", await get("vendor-kind", "atom", { slug: "calm", kind: "quiet-degradation" }, "", local)))[0];
    expect(ongoing).toMatchObject({ title: "Calm Cloud: Quiet degradation: Frankfurt", published: T("11:00"), updated: T("11:00") });
    expect(ongoing?.html).toContain("since 2026-03-01 11:00 UTC (ongoing when last observed)");
    await recordSteps(local, calm, [{ at: T("11:30"), states: {} }]);
    const ended = (await items("atom", await get("vendor-kind", "atom", { slug: "calm", kind: "quiet-degradation" }, "", local)))[0];
    expect(ended).toMatchObject({ id: ongoing?.id, published: T("11:00"), updated: T("11:30") });
    expect(ended?.html).toContain("to 2026-03-01 11:30 UTC (30 min)");
    const json = await items("json", await get("vendor", "json", { slug: "calm" }, "", local));
    expect(json[0]).toMatchObject({ id: ongoing?.id, published: T("11:00"), updated: T("11:30") });
  });

  it("sit in the vendor's feed and the feed of every change beside the versions, newest first", async () => {
    const vendor = titles(await items("json", await get("vendor", "json", { slug: "calm" })));
    expect(vendor).toEqual([
      "Calm Cloud: New minor incident: API errors",
      "Calm Cloud: Quiet degradation: Frankfurt",
      "Calm Cloud: Quiet degradation: DNS, REST API",
    ]);
    const all = titles(await items("rss", await get("all", "rss", {})));
    expect(all).toContain("Calm Cloud: Quiet degradation: Frankfurt");
    expect(all).toContain("Calm Cloud: New minor incident: API errors");
  });

  it("are picked by kind, narrowed by group and component, left out by an impact, and absent from an incident's or a change kind's feed", async () => {
    expect(titles(await items("json", await get("all", "json", {}, "?kind=quiet-degradation&component=dns")))).toEqual(["Calm Cloud: Quiet degradation: DNS, REST API"]);
    expect(titles(await items("json", await get("kind", "json", { kind: "quiet-degradation" }, "?group=europe")))).toEqual(["Calm Cloud: Quiet degradation: Frankfurt"]);
    expect(titles(await items("json", await get("all", "json", {}, "?kind=quiet-degradation&group=Edge%20network"))).every((t) => t.startsWith("Busy CDN: "))).toBe(true);
    expect(titles(await items("json", await get("all", "json", {}, "?impact=minor"))).some((t) => t.includes("Quiet degradation"))).toBe(false);
    expect(titles(await items("json", await get("all", "json", {}, "?kind=incident-new")))).toEqual(["Calm Cloud: New minor incident: API errors"]);
    expect(titles(await items("json", await get("kind", "json", { kind: "incident-new" })))).toEqual(["Calm Cloud: New minor incident: API errors"]);
    expect(titles(await items("json", await get("incident", "json", { slug: "calm", key: "inc1" }, "?kind=quiet-degradation")))).toEqual([]);
  });

  it("follow a watchlist's vendors narrowed to its components", async () => {
    expect(titles(await items("json", await get("watchlist", "json", { name: "frankfurt" }, "?kind=quiet-degradation")))).toEqual(["Calm Cloud: Quiet degradation: Frankfurt"]);
  });

  it("refuse a group where versions are carried too, with a 400 problem saying where it works", async () => {
    const refused = await get("vendor", "atom", { slug: "calm" }, "?group=Europe");
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ detail: expect.stringMatching(/^group: a group narrows quiet degradations/) });
    expect((await get("kind", "atom", { kind: "incident-new" }, "?group=Europe")).status).toBe(400);
    expect((await get("all", "atom", {}, "?kind=quiet-levels")).status).toBe(400);
  });

  it("keep a hostile component name as text in every format: plain words in the title, escaped in the HTML", async () => {
    for (const format of FEED_FORMATS) {
      const list = await items(format, await get("vendor", format, { slug: "hostile" }));
      expect(list[0]?.title).toBe("Hostile Co: Quiet degradation: & ]]> Frankfurt");
      expect(list[0]?.html).not.toMatch(/<script|<b>/);
      expect(list[0]?.html).toContain("&lt;script&gt;");
    }
  });
});
