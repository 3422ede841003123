import Parser from "rss-parser";
import { SaxesParser } from "saxes";
import { beforeAll, describe, expect, it } from "vitest";
import type { RedlineDb } from "@/db/client";
import { ensureVendor } from "@/db/settings/vendors";
import { saveWatchlist } from "@/db/notifications/watchlists";
import { escapeHtml } from "@/lib/render/change-html";
import { type FeedFormat, FEED_FORMATS } from "@/lib/render/feed";
import { ingestSnapshot } from "@/scrapers/ingest/ingest-snapshot";
import { type FeedLevel, feedRoute } from "@/server/feeds/feed-route";
import { archiveAcmeLifecycle } from "@/tests/support/acme-archive";
import { freshDatabase } from "@/tests/support/database";
import { xmlErrors } from "@/tests/support/xml-errors";
import { makeIncident, makeUpdate } from "@/tests/support/incidents";
import { makeTestPlatform, snapshotBody } from "@/tests/support/test-platform";

const ORIGIN = "http://redline.test";
const platform = makeTestPlatform({ kind: "recent", limit: 25 });
let db: RedlineDb;

beforeAll(async () => {
  db = await freshDatabase();
  await archiveAcmeLifecycle(db, platform);
  const other = await ensureVendor(db, { slug: "other", name: "Other Co", platform: platform.name });
  const outage = makeIncident({ vendor: "other", id: "p1", title: "Payments outage", impact: "critical", components: [{ id: "pay", name: "Payments" }] });
  await ingestSnapshot(db, { vendor: other, platform, source: "feed", observedAt: "2026-04-09T01:00:00.000Z", body: snapshotBody([outage]) });
  await saveWatchlist(db, { name: "team", vendors: ["acme"], components: [] });
});

const LEVELS: { level: FeedLevel; params: Record<string, string>; path: string }[] = [
  { level: "all", params: {}, path: "/feed" },
  { level: "kind", params: { kind: "update-edited" }, path: "/kinds/update-edited/feed" },
  { level: "vendor", params: { slug: "acme" }, path: "/vendors/acme/feed" },
  { level: "vendor-kind", params: { slug: "acme", kind: "postmortem-published" }, path: "/vendors/acme/kinds/postmortem-published/feed" },
  { level: "incident", params: { slug: "acme", key: "k3x9" }, path: "/vendors/acme/incidents/k3x9/feed" },
  { level: "watchlist", params: { name: "team" }, path: "/watch/team/feed" },
];

async function get(level: FeedLevel, format: FeedFormat, params: Record<string, string>, query = "", headers: Record<string, string> = {}) {
  const request = new Request(`${ORIGIN}/x.${format}${query}`, { headers });
  return feedRoute(level, format, () => db)(request, { params: Promise.resolve(params) });
}

interface ParsedItem {
  id: string;
  title: string;
  link: string;
  published: string;
  html: string;
}

async function parseItems(format: FeedFormat, body: string): Promise<ParsedItem[]> {
  if (format === "json") {
    const feed = JSON.parse(body) as { items: { id: string; title: string; url: string; date_published: string; content_html: string }[] };
    return feed.items.map((i) => ({ id: i.id, title: i.title, link: i.url, published: i.date_published, html: i.content_html }));
  }
  const feed = await new Parser({ customFields: { item: ["id"] } }).parseString(body);
  return feed.items.map((i) => ({
    id: String(format === "atom" ? (i as { id?: string }).id : i.guid),
    title: i.title ?? "",
    link: i.link ?? "",
    published: i.isoDate ?? "",
    html: String((i as { content?: string }).content ?? ""),
  }));
}

/** The elements each format requires (RFC 4287 §4.1, RSS 2.0's channel and item, JSON Feed 1.1). */
function checkRequired(format: FeedFormat, body: string): void {
  if (format === "atom") {
    expect(body).toMatch(/<feed xmlns="http:\/\/www\.w3\.org\/2005\/Atom"/);
    const head = body.slice(0, body.indexOf("<entry>") >= 0 ? body.indexOf("<entry>") : body.length);
    for (const tag of ["<id>", '<title type="text">', "<updated>", 'rel="self"']) expect(head).toContain(tag);
    for (const entry of body.split("<entry>").slice(1)) for (const tag of ["<id>", "<title", "<updated>", "<link", "<content"]) expect(entry).toContain(tag);
  } else if (format === "rss") {
    expect(body).toMatch(/<rss version="2\.0"/);
    for (const tag of ["<channel>", "<title>", "<link>", "<description>", 'rel="self"']) expect(body).toContain(tag);
    for (const item of body.split("<item>").slice(1)) for (const tag of ["<title>", "<link>", '<guid isPermaLink="false">', "<pubDate>"]) expect(item).toContain(tag);
  } else {
    const feed = JSON.parse(body) as Record<string, unknown> & { items: Record<string, unknown>[] };
    expect(feed.version).toBe("https://jsonfeed.org/version/1.1");
    expect(typeof feed.title).toBe("string");
    expect(String(feed.feed_url)).toMatch(/^http:\/\/redline\.test\/.+\.json$/);
    for (const item of feed.items) {
      expect(typeof item.id).toBe("string");
      expect(typeof item.content_html).toBe("string");
      expect(String(item.date_published)).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    }
  }
}

describe("feeds of every level and format", () => {
  for (const { level, params, path } of LEVELS) {
    for (const format of FEED_FORMATS) {
      it(`${path}.${format} parses back with every required element, one item per change`, async () => {
        const response = await get(level, format, params);
        expect(response.status).toBe(200);
        expect(response.headers.get("content-type")).toMatch(format === "json" ? /^application\/feed\+json/ : format === "atom" ? /^application\/atom\+xml/ : /^application\/rss\+xml/);
        const body = await response.text();
        if (format !== "json") expect(xmlErrors(body)).toEqual([]);
        checkRequired(format, body);
        const items = await parseItems(format, body);
        expect(items.length).toBeGreaterThan(0);
        for (const item of items) {
          expect(item.title).toMatch(/^(Acme Cloud|Other Co): [^:]+: .+/);
          expect(item.link).toMatch(/^http:\/\/redline\.test\/vendors\/[a-z-]+\/incidents\/[^/]+\/versions\/\d+$/);
          expect(item.id).toMatch(/^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
          expect(Date.parse(item.published)).not.toBeNaN();
        }
        expect(new Set(items.map((i) => i.id)).size).toBe(items.length);
        const dates = items.map((i) => Date.parse(i.published));
        expect(dates).toEqual([...dates].sort((a, b) => b - a));
      });
    }
  }
});

describe("feed items", () => {
  it("follow only what the address names: one kind, one vendor and kind, one incident", async () => {
    const kind = await parseItems("json", await (await get("kind", "json", { kind: "update-edited" })).text());
    expect(kind.every((i) => i.title.includes(": Update edited: "))).toBe(true);
    const postmortems = await parseItems("json", await (await get("vendor-kind", "json", { slug: "acme", kind: "postmortem-published" })).text());
    expect(postmortems.map((i) => i.title)).toEqual([expect.stringMatching(/^Acme Cloud: Postmortem published: /)]);
    const incident = await parseItems("json", await (await get("incident", "json", { slug: "acme", key: "k3x9" })).text());
    expect(incident.every((i) => i.link.includes("/vendors/acme/incidents/k3x9/versions/"))).toBe(true);
  });

  it("carry the machine summary and the Before / After of a rewritten update, whole and sanitized", async () => {
    const items = await parseItems("atom", await (await get("incident", "atom", { slug: "acme", key: "k3x9" })).text());
    const edited = items.find((i) => i.title.includes("Update edited"));
    expect(edited?.html).toContain("Machine-written from the diff below");
    // Little of the update was kept, so both versions are shown whole rather than marked word by word.
    expect(edited?.html).toMatch(/<th scope="row">Before<\/th><td>[\s\S]*We are investigating failed webhook deliveries\./);
    expect(edited?.html).toMatch(/<th scope="row">After<\/th><td>[\s\S]*Some webhook deliveries were delayed\./);
    expect(edited?.html).not.toMatch(/Word changes|<del>|<ins>/);
    const all = items.map((i) => i.html).join("\n");
    expect(all).not.toMatch(/<script|<img|<iframe|href="(?!https?:)|\son\w+=/i);
    // The hostile update text is still there, as text.
    expect(all).toContain("&lt;script&gt;alert(");
  });

  it("filter by the incident's impact and component, and by more kinds", async () => {
    const critical = await parseItems("json", await (await get("all", "json", {}, "?impact=critical")).text());
    expect(critical.length).toBeGreaterThan(0);
    expect(critical.every((i) => i.title.startsWith("Other Co: "))).toBe(true);
    const webhooks = await parseItems("json", await (await get("all", "json", {}, "?component=webhooks")).text());
    expect(webhooks.length).toBeGreaterThan(0);
    expect(webhooks.every((i) => i.title.startsWith("Acme Cloud: "))).toBe(true);
    const two = await parseItems("json", await (await get("vendor", "json", { slug: "acme" }, "?kind=impact-downgraded&kind=postmortem-published")).text());
    expect(two.map((i) => i.title.split(": ")[1]).sort()).toEqual(["Impact downgraded", "Postmortem published"]);
  });

  it("are titled and described by what their query narrows them to, as a kind's own feed is titled", async () => {
    const feedOf = async (level: FeedLevel, params: Record<string, string>, query: string) =>
      (await (await get(level, "json", params, query)).json()) as { title: string; description: string };
    expect(await feedOf("all", {}, "")).toMatchObject({ title: "Redline: all changes", description: expect.stringMatching(/^Every change Redline archived, newest first: /) });
    const edited = await feedOf("all", {}, "?kind=update-edited");
    expect(edited.title).toBe("Redline: Update edited");
    expect((await feedOf("kind", { kind: "update-edited" }, "")).title).toBe(edited.title);
    expect(edited.description).toMatch(/^Every change Redline archived, newest first: .*\. Only: Update edited\.$/);
    expect((await feedOf("vendor", { slug: "acme" }, "?kind=impact-downgraded&kind=postmortem-published")).title).toBe("Redline: Acme Cloud: Impact downgraded, Postmortem published");
    const narrowed = await feedOf("all", {}, "?impact=critical&component=pay");
    expect(narrowed.title).toBe("Redline: impact critical; component pay");
    expect(narrowed.description).toMatch(/ Only: impact critical; component pay\.$/);
    expect((await feedOf("vendor", { slug: "acme" }, "")).title).toBe("Redline: Acme Cloud");
  });

  it("keep their ids when the feed is made again, and when newer changes push in", async () => {
    const before = await parseItems("rss", await (await get("vendor", "rss", { slug: "other" })).text());
    const again = await parseItems("rss", await (await get("vendor", "rss", { slug: "other" })).text());
    expect(again).toEqual(before);
    const local = await freshDatabase();
    const other = await ensureVendor(local, { slug: "other", name: "Other Co", platform: platform.name });
    const outage = makeIncident({ vendor: "other", id: "p1", title: "Payments outage", impact: "critical" });
    await ingestSnapshot(local, { vendor: other, platform, source: "feed", observedAt: "2026-04-09T01:00:00.000Z", body: snapshotBody([outage]) });
    const first = await (await feedRoute("vendor", "json", () => local)(new Request(`${ORIGIN}/a.json`), { params: Promise.resolve({ slug: "other" }) })).json() as { items: { id: string }[] };
    await ingestSnapshot(local, { vendor: other, platform, source: "feed", observedAt: "2026-04-09T02:00:00.000Z", body: snapshotBody([{ ...outage, status: "resolved", resolvedAt: "2026-04-09T01:50:00.000Z" }]) });
    const second = await (await feedRoute("vendor", "json", () => local)(new Request(`${ORIGIN}/a.json`), { params: Promise.resolve({ slug: "other" }) })).json() as { items: { id: string }[] };
    expect(second.items).toHaveLength(2);
    expect(second.items[1]?.id).toBe(first.items[0]?.id);
  });
});

describe("feed item headings", () => {
  it("name the impact the incident had in that version, not the one it has now", async () => {
    const vendor = await ensureVendor(db, { slug: "lowered", name: "Lowered Co", platform: platform.name });
    const major = makeIncident({ vendor: "lowered", id: "d1", title: "Database failover", impact: "major" });
    await ingestSnapshot(db, { vendor, platform, source: "feed", observedAt: "2026-04-10T01:00:00.000Z", body: snapshotBody([major]) });
    await ingestSnapshot(db, { vendor, platform, source: "feed", observedAt: "2026-04-11T01:00:00.000Z", body: snapshotBody([{ ...major, impact: "minor" }]) });
    const items = await parseItems("json", await (await get("vendor", "json", { slug: "lowered" })).text());
    expect(items.map((i) => i.title)).toEqual(["Lowered Co: Impact downgraded: Database failover", "Lowered Co: New major incident: Database failover"]);
  });
});

describe("conditional GET", () => {
  it("answers 304 to a reader that has the current feed, by ETag or by date", async () => {
    const first = await get("vendor", "atom", { slug: "acme" });
    const etag = first.headers.get("etag");
    const lastModified = first.headers.get("last-modified");
    expect(etag).toMatch(/^W\/".+"$/);
    expect(lastModified).toMatch(/GMT$/);
    expect(first.headers.get("cache-control")).toMatch(/max-age=\d+/);
    const byTag = await get("vendor", "atom", { slug: "acme" }, "", { "if-none-match": etag ?? "" });
    expect(byTag.status).toBe(304);
    expect(await byTag.text()).toBe("");
    expect(byTag.headers.get("etag")).toBe(etag);
    const byDate = await get("vendor", "atom", { slug: "acme" }, "", { "if-modified-since": lastModified ?? "" });
    expect(byDate.status).toBe(304);
    const stale = await get("vendor", "atom", { slug: "acme" }, "", { "if-none-match": 'W/"something-else"' });
    expect(stale.status).toBe(200);
  });

  it("gives each format and filter its own ETag", async () => {
    const tags = new Set<string | null>();
    for (const format of FEED_FORMATS) tags.add((await get("vendor", format, { slug: "acme" })).headers.get("etag"));
    tags.add((await get("vendor", "atom", { slug: "acme" }, "?impact=minor")).headers.get("etag"));
    expect(tags.size).toBe(4);
  });
});

describe("feed errors", () => {
  it("answers a bad parameter with a 400 problem naming it", async () => {
    const response = await get("all", "atom", {}, "?impact=catastrophic");
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(await response.json()).toMatchObject({ status: 400, detail: expect.stringMatching(/^impact: /) });
    expect((await get("all", "atom", {}, "?color=red")).status).toBe(400);
    // A kind feed names its kind in the address already.
    expect((await get("kind", "atom", { kind: "update-edited" }, "?kind=incident-new")).status).toBe(400);
  });

  it("answers unknown vendors, incidents and kinds with a 404 problem", async () => {
    for (const [level, params] of [["vendor", { slug: "nope" }], ["incident", { slug: "acme", key: "nope" }], ["kind", { kind: "nope" }], ["vendor-kind", { slug: "acme", kind: "nope" }]] as const) {
      const response = await get(level, "rss", params);
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ status: 404, title: "Not found" });
    }
  });
});

describe("feed titles", () => {
  const VENDOR = `Evil <b>Co</b> & "Sons" &amp; 'Daughters'`;
  const TITLE = `<script>alert("t")</script> ]]> ]]><x/> &lt;i&gt; <![CDATA[ c ]]>`;
  let hostile: RedlineDb;

  beforeAll(async () => {
    hostile = await freshDatabase();
    const vendor = await ensureVendor(hostile, { slug: "evil", name: VENDOR, platform: platform.name });
    const incident = makeIncident({ vendor: "evil", id: "e1", title: TITLE });
    await ingestSnapshot(hostile, { vendor, platform, source: "feed", observedAt: "2026-04-09T01:00:00.000Z", body: snapshotBody([incident]) });
  });

  interface XmlText {
    /** The enclosing elements, outermost first: "feed", "feed entry", "rss channel item" … */
    parents: string;
    type: string | undefined;
    text: string;
  }

  /** Every `name` element of a document, its text as a strict XML parser reads it. */
  function xmlTexts(xml: string, name: string): XmlText[] {
    const parser = new SaxesParser({ xmlns: true });
    const open: { name: string; type: string | undefined; text: string }[] = [];
    const found: XmlText[] = [];
    parser.on("error", (e) => {
      throw e;
    });
    parser.on("opentag", (tag) => open.push({ name: tag.local, type: tag.attributes.type?.value, text: "" }));
    parser.on("text", (text) => {
      const current = open.at(-1);
      if (current) current.text += text;
    });
    parser.on("closetag", () => {
      const element = open.pop();
      if (element?.name === name) found.push({ parents: open.map((e) => e.name).join(" "), type: element.type, text: element.text });
    });
    parser.write(xml).close();
    return found;
  }

  /** The feed's own title and its items' titles, as a reader of `format` gets them. */
  function titlesOf(format: FeedFormat, body: string): { feed: string[]; items: string[] } {
    if (format === "json") {
      const feed = JSON.parse(body) as { title: string; items: { title: string }[] };
      return { feed: [feed.title], items: feed.items.map((i) => i.title) };
    }
    const titles = xmlTexts(body, "title");
    const [feedParent, itemParent] = format === "atom" ? ["feed", "feed entry"] : ["rss channel", "rss channel item"];
    return { feed: titles.filter((t) => t.parents === feedParent).map((t) => t.text), items: titles.filter((t) => t.parents === itemParent).map((t) => t.text) };
  }

  // Their words as a reader gets them: tags (escaped ones too), scripts and CDATA gone.
  const VENDOR_WORDS = `Evil Co & "Sons" & 'Daughters'`;
  const TITLE_WORDS = "]]> ]]>";
  const SCOPES = [
    { level: "vendor" as const, params: { slug: "evil" }, feedTitle: `Redline: ${VENDOR_WORDS}` },
    { level: "incident" as const, params: { slug: "evil", key: "e1" }, feedTitle: `Redline: ${VENDOR_WORDS}: ${TITLE_WORDS}` },
  ];

  for (const { level, params, feedTitle } of SCOPES) {
    for (const format of FEED_FORMATS) {
      it(`are the vendor's and the incident's words in the ${level} feed in ${format}, without their markup`, async () => {
        const response = await feedRoute(level, format, () => hostile)(new Request(`${ORIGIN}/x.${format}`), { params: Promise.resolve(params) });
        expect(response.status).toBe(200);
        const body = await response.text();
        const titles = titlesOf(format, body);
        expect(titles.feed).toEqual([feedTitle]);
        expect(titles.items).toEqual([`${VENDOR_WORDS}: New minor incident: ${TITLE_WORDS}`]);
      });
    }
  }

  it("reach a reader that renders titles as HTML as plain words: no tag, no script address, in any format", async () => {
    const db2 = await freshDatabase();
    const vendor = await ensureVendor(db2, { slug: "lenient", name: "Lenient <i>Co</i>", platform: platform.name });
    const incident = makeIncident({
      vendor: "lenient", id: "l1", title: "<script>alert(1)</script>Outage <img src=x onerror=alert(1)>",
      updates: [makeUpdate({ body: '<a href="javascript:alert(1)">x</a> We are investigating.' })],
    });
    await ingestSnapshot(db2, { vendor, platform, source: "feed", observedAt: "2026-04-09T01:00:00.000Z", body: snapshotBody([incident]) });
    for (const format of FEED_FORMATS) {
      const body = await (await feedRoute("incident", format, () => db2)(new Request(`${ORIGIN}/x.${format}`), { params: Promise.resolve({ slug: "lenient", key: "l1" }) })).text();
      const titles = titlesOf(format, body);
      expect(titles.items).toEqual(["Lenient Co: New minor incident: Outage"]);
      expect(titles.feed).toEqual(["Redline: Lenient Co: Outage"]);
      for (const title of [...titles.feed, ...titles.items]) {
        expect(title).not.toMatch(/[<>]|javascript:|alert/i);
      }
      if (format === "rss") {
        const texts = [...xmlTexts(body, "title"), ...xmlTexts(body, "description")].map((t) => t.text);
        expect(texts.join("\n")).not.toMatch(/<[a-z/!?]|javascript:/i);
      }
    }
  });

  it("come with summaries that reach a reader as text: typed text in Atom, escaped as HTML in RSS, plain in JSON", async () => {
    const feed = (format: FeedFormat) => feedRoute("vendor", format, () => hostile)(new Request(`${ORIGIN}/x.${format}`), { params: Promise.resolve({ slug: "evil" }) });
    const json = (await (await feed("json")).json()) as { items: { summary: string }[] };
    const summary = json.items[0]?.summary ?? "";
    // The change leads; the vendor's sentence, with its hostile name, follows.
    expect(summary).toMatch(/^First archived /);
    expect(summary).toContain(`${VENDOR} reported `);
    expect(xmlTexts(await (await feed("atom")).text(), "summary")).toEqual([{ parents: "feed entry", type: "text", text: summary }]);
    const descriptions = xmlTexts(await (await feed("rss")).text(), "description").filter((d) => d.parents === "rss channel item");
    expect(descriptions.map((d) => d.text)).toEqual([escapeHtml(summary)]);
  });

  it("are never typed as HTML in Atom", async () => {
    for (const { level, params } of SCOPES) {
      const body = await (await feedRoute(level, "atom", () => hostile)(new Request(`${ORIGIN}/x.atom`), { params: Promise.resolve(params) })).text();
      const titles = xmlTexts(body, "title");
      expect(titles.length).toBe(2);
      expect(titles.map((t) => t.type)).toEqual(["text", "text"]);
    }
  });
});
