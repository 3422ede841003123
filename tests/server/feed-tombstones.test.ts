import { parseDocument } from "htmlparser2";
import { DomUtils } from "htmlparser2";
import Parser from "rss-parser";
import { beforeAll, describe, expect, it } from "vitest";
import type { RedlineDb } from "@/db/client";
import { ensureVendor } from "@/db/settings/vendors";
import { saveWatchlist } from "@/db/notifications/watchlists";
import type { FeedFormat } from "@/lib/render/feed";
import { ingestSnapshot } from "@/scrapers/ingest/ingest-snapshot";
import { type FeedLevel, feedRoute } from "@/server/feeds/feed-route";
import { freshDatabase } from "@/tests/support/database";
import { makeIncident } from "@/tests/support/incidents";
import { makeTestPlatform, snapshotBody } from "@/tests/support/test-platform";

const ORIGIN = "http://redline.test";
const platform = makeTestPlatform({ kind: "recent", limit: 25 });
const OLDER = [
  makeIncident({ id: "old", title: "Old outage", startedAt: "2026-01-01T00:00:00.000Z" }),
  makeIncident({ id: "older", title: "Older outage", startedAt: "2025-12-01T00:00:00.000Z" }),
];
const DELETED_AT = "2026-03-01T12:00:00.000Z";
let db: RedlineDb;

beforeAll(async () => {
  db = await freshDatabase();
  const vendor = await ensureVendor(db, { slug: "acme", name: "Acme Cloud", platform: platform.name });
  const capture = (observedAt: string, incidents: ReturnType<typeof makeIncident>[]) =>
    ingestSnapshot(db, { vendor, platform, source: "incidents.json", observedAt, body: snapshotBody(incidents) });
  await capture("2026-03-01T10:00:00.000Z", [makeIncident(), ...OLDER]);
  await capture("2026-03-01T11:00:00.000Z", [makeIncident({ status: "identified" }), ...OLDER]);
  await capture(DELETED_AT, OLDER);
  await saveWatchlist(db, { name: "team", vendors: ["acme"], components: [] });
});

async function get(level: FeedLevel, format: FeedFormat, params: Record<string, string>) {
  return feedRoute(level, format, () => db)(new Request(`${ORIGIN}/x.${format}`), { params: Promise.resolve(params) });
}

interface Tombstone {
  ref: string;
  when: string;
  link: string;
  comment: string;
}

function tombstonesOf(xml: string): Tombstone[] {
  const doc = parseDocument(xml, { xmlMode: true });
  const feed = DomUtils.findOne((e) => e.name === "feed", doc.children);
  expect(feed?.attribs["xmlns:at"]).toBe("http://purl.org/atompub/tombstones/1.0");
  return DomUtils.findAll((e) => e.name === "at:deleted-entry", doc.children).map((e) => ({
    ref: e.attribs.ref ?? "",
    when: e.attribs.when ?? "",
    link: DomUtils.findOne((c) => c.name === "link", e.children)?.attribs.href ?? "",
    comment: DomUtils.textContent(DomUtils.findOne((c) => c.name === "at:comment", e.children) ?? []),
  }));
}

async function entryIds(xml: string): Promise<string[]> {
  const feed = await new Parser({ customFields: { item: ["id"] } }).parseString(xml);
  return feed.items.map((i) => String((i as { id?: string }).id));
}

describe("Atom feeds of a deleted incident", () => {
  const levels: { level: FeedLevel; params: Record<string, string> }[] = [
    { level: "all", params: {} },
    { level: "vendor", params: { slug: "acme" } },
    { level: "incident", params: { slug: "acme", key: "inc1" } },
    { level: "watchlist", params: { name: "team" } },
  ];
  for (const { level, params } of levels) {
    it(`in the ${level} feed, tombstone every entry the incident had before its deletion and keep the deletion as an entry`, async () => {
      const before = await get(level, "atom", params);
      const xml = await before.text();
      const tombstones = tombstonesOf(xml);
      expect(tombstones).toHaveLength(2);
      for (const t of tombstones) {
        expect(t.when).toBe(DELETED_AT);
        expect(t.link).toBe(`${ORIGIN}/vendors/acme/incidents/inc1`);
        expect(t.comment).toMatch(/Acme Cloud deleted this incident/);
      }
      const ids = await entryIds(xml);
      for (const t of tombstones) expect(ids).not.toContain(t.ref);
      const rss = await new Parser().parseString(await (await get(level, "rss", params)).text());
      const titles = rss.items.map((i) => i.title ?? "");
      expect(titles.filter((t) => t.includes("Elevated API errors"))).toHaveLength(3);
      const rssIds = rss.items.map((i) => i.guid);
      expect(rssIds).toEqual(expect.arrayContaining(tombstones.map((t) => t.ref)));
      expect(titles.some((t) => t.includes("Incident deleted"))).toBe(true);
      const atomTitles = (await new Parser().parseString(xml)).items.map((i) => i.title ?? "");
      expect(atomTitles.filter((t) => t.includes("Elevated API errors"))).toEqual([expect.stringContaining("Incident deleted")]);
    });
  }

  it("carry no tombstones and no tombstone namespace while nothing is deleted", async () => {
    const xml = await (await get("incident", "atom", { slug: "acme", key: "old" })).text();
    expect(xml).not.toContain("deleted-entry");
    expect(xml).not.toContain("tombstones");
  });

  it("drop the tombstones once the vendor lists the incident again", async () => {
    const other = await freshDatabase();
    const vendor = await ensureVendor(other, { slug: "acme", name: "Acme Cloud", platform: platform.name });
    const capture = (observedAt: string, incidents: ReturnType<typeof makeIncident>[]) =>
      ingestSnapshot(other, { vendor, platform, source: "incidents.json", observedAt, body: snapshotBody(incidents) });
    await capture("2026-03-01T10:00:00.000Z", [makeIncident(), ...OLDER]);
    await capture(DELETED_AT, OLDER);
    const deleted = await feedRoute("all", "atom", () => other)(new Request(`${ORIGIN}/feed.atom`), { params: Promise.resolve({}) });
    expect(tombstonesOf(await deleted.text())).toHaveLength(1);
    await capture("2026-03-01T13:00:00.000Z", [makeIncident(), ...OLDER]);
    const back = await feedRoute("all", "atom", () => other)(new Request(`${ORIGIN}/feed.atom`), { params: Promise.resolve({}) });
    const xml = await back.text();
    expect(xml).not.toContain("deleted-entry");
    expect(await entryIds(xml)).toHaveLength(5);
  });
});
