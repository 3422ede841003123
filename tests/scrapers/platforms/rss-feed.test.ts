import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { ParsedSnapshot } from "@/lib/derive/observation";
import { incidentSchema, type Incident } from "@/lib/incident";
import type { ParseContext } from "@/scrapers/platforms/platform";
import { rfc822ToIso } from "@/scrapers/platforms/feed-document";
import { rssFeedPlatform } from "@/scrapers/platforms/rss-feed";
import { corpusPath, describeCorpus } from "@/tests/support/corpus";
import { findIncident, snapshotRejection, parseIncidents } from "@/tests/support/parsing";
import { statedKeys } from "@/tests/simulator/carried";

const FIXTURES = path.join(__dirname, "..", "..", "fixtures", "rss");
const ctx: ParseContext = { vendor: "example", source: "feed.xml", observedAt: "2026-03-04T00:00:00.000Z" };

function parseFile(file: string): Promise<Incident[]> {
  return parseIncidents(rssFeedPlatform, fs.readFileSync(file), ctx);
}

function parseText(text: string): Promise<Incident[]> {
  return parseIncidents(rssFeedPlatform, new TextEncoder().encode(text), ctx);
}

function read(text: string): Promise<ParsedSnapshot> {
  return rssFeedPlatform.parse(new TextEncoder().encode(text), ctx);
}

function rss(items: string): string {
  return `<rss version="2.0"><channel><title>c</title>${items}</channel></rss>`;
}

describe("rfc822ToIso", () => {
  it("reads zone abbreviations, numeric offsets, a bare Z, two-digit years and ISO-8601", () => {
    expect(rfc822ToIso("Mon, 17 Aug 2026 21:01:19 PDT")).toBe("2026-08-18T04:01:19.000Z");
    expect(rfc822ToIso("Mon, 02 Mar 2026 09:15:00 +0100")).toBe("2026-03-02T08:15:00.000Z");
    expect(rfc822ToIso("Thu, 23 Jul 2026 16:29:09 Z")).toBe("2026-07-23T16:29:09.000Z");
    expect(rfc822ToIso("3 Mar 26 09:00 EST")).toBe("2026-03-03T14:00:00.000Z");
    expect(rfc822ToIso("2026-03-02T10:00:00+02:00")).toBe("2026-03-02T08:00:00.000Z");
    expect(rfc822ToIso("Mon, 02 Mar 2026 09:15:00 XYZT")).toBeNull();
    expect(rfc822ToIso("31 Feb 2026 10:00 UTC")).toBeNull();
  });
});

describe("rss platform", () => {
  it("maps an Atom entry to one incident: id, title as text, link, published time in UTC", async () => {
    const postmortem = findIncident(await parseFile(path.join(FIXTURES, "blog-handwritten.atom")), "tag:eng.example-blog.test,2026:postmortem-0301");
    expect(postmortem).toMatchObject({
      kind: "incident",
      title: "Postmortem: the <b>March 1</b> outage",
      status: null,
      url: "https://eng.example-blog.test/2026/03/postmortem-0301",
      startedAt: "2026-03-02T08:00:00.000Z",
    });
    expect(incidentSchema.safeParse(postmortem).success).toBe(true);
  });

  it("turns the entry's HTML into one update of text, scripts and javascript links dropped", async () => {
    const postmortem = findIncident(await parseFile(path.join(FIXTURES, "blog-handwritten.atom")), "tag:eng.example-blog.test,2026:postmortem-0301");
    expect(postmortem.updates).toEqual([
      {
        id: "~20260302T080000Z",
        status: null,
        body: "What happened\n\nA config push removed [our routes](https://eng.example-blog.test/routes).\n\nWe now stage pushes. Click",
        createdAt: "2026-03-02T08:00:00.000Z",
        displayAt: "2026-03-02T08:00:00.000Z",
      },
    ]);
  });

  it("keys an entry without an id by its link and dates it by its update time", async () => {
    const report = findIncident(await parseFile(path.join(FIXTURES, "blog-handwritten.atom")), "https://eng.example-blog.test/2026/02/reliability");
    expect(report).toMatchObject({ startedAt: "2026-02-20T09:00:00.000Z", updates: [{ body: "All quiet." }] });
  });

  it("prefers content:encoded over the description and leaves an undated item's times null", async () => {
    const incidents = await parseFile(path.join(FIXTURES, "changelog-handwritten.rss"));
    expect(findIncident(incidents, "changelog-42")).toMatchObject({ startedAt: "2026-03-03T14:00:00.000Z", updates: [{ body: "Long version with details." }] });
    expect(findIncident(incidents, "changelog-41")).toMatchObject({
      startedAt: null,
      url: null,
      updates: [{ id: "~undated", createdAt: null, body: "No date on this one." }],
    });
  });

  it("says only title, link, time and text rendered from HTML, and lists the most recent items", () => {
    expect(statedKeys(rssFeedPlatform)).toEqual(["title", "url", "startedAt", "updates"]);
    expect(rssFeedPlatform.profile.updates).toEqual({ list: "full", time: "exact", text: "rendered", createdAt: false });
    expect(rssFeedPlatform.profile.presence).toEqual({ kind: "recent", limit: null });
  });

  it("reads an item with neither guid, id nor link as unreadable, and the others as usual", async () => {
    const snapshot = await read(rss("<item><title>t</title></item><item><guid>g</guid><title>u</title></item>"));
    expect(snapshot.unread).toEqual([{ id: null, path: "items[0]" }]);
    expect(snapshot.warnings).toEqual([{ path: "items[0]", message: "item has no guid, id or link" }]);
    expect(snapshot.observations.map((o) => [o.path, o.incident.id])).toEqual([["items[1]", "g"]]);
  });

  it("states no start for an item whose date is unreadable and skips its one update, naming the path", async () => {
    const snapshot = await read(rss("<item><guid>g</guid><title>t</title><description>Text.</description><pubDate>someday</pubDate></item>"));
    expect(snapshot.warnings).toEqual([expect.objectContaining({ path: "items[0].pubDate", message: expect.stringContaining("someday") })]);
    expect(snapshot.observations[0]).toMatchObject({ unstated: ["startedAt"], partialUpdates: true, incident: { title: "t", updates: [] } });
  });

  it("does not date an Atom entry by its update time when its published time is unreadable", async () => {
    const atom = `<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>e1</id><title>t</title><published>last week</published>` +
      `<updated>2026-03-02T08:00:00Z</updated><content>x</content></entry></feed>`;
    const snapshot = await read(atom);
    expect(snapshot.warnings.map((w) => w.path)).toEqual(["items[0].published"]);
    expect(snapshot.observations[0]).toMatchObject({ unstated: ["startedAt"], incident: { startedAt: null } });
  });

  it("keeps the first of two items with one guid", async () => {
    const snapshot = await read(rss("<item><guid>g</guid><title>first</title></item><item><guid>g</guid><title>second</title></item>"));
    expect(snapshot.observations.map((o) => o.incident.title)).toEqual(["first"]);
  });

  it("treats an empty body as a failed fetch and JSON as unparseable", async () => {
    expect((await snapshotRejection(parseText(""))).kind).toBe("empty");
    expect((await snapshotRejection(parseText('{"items": []}'))).kind).toBe("unparseable");
  });
});

describeCorpus("rss platform on AWS all.rss", () => {
  it("parses every item of the captured feed into a valid incident keyed by its guid, PDT read as UTC-7", async () => {
    const incidents = await parseFile(corpusPath("samples", "aws-rss", "all-rss-jtprogru-weekly-incident.rss"));
    expect(incidents).toHaveLength(50);
    for (const incident of incidents) expect(incidentSchema.safeParse(incident).success).toBe(true);
    const resolved = findIncident(incidents, "https://status.aws.amazon.com/#directconnect-eu-central-1_1787025679");
    expect(resolved).toMatchObject({
      title: "Service is operating normally: [RESOLVED] Increased Packet loss",
      startedAt: "2026-08-18T04:01:19.000Z",
      url: "https://status.aws.amazon.com/",
    });
    expect(resolved.updates[0]?.body).toMatch(/^Starting August 14 7:33 PM PDT/);
    expect(resolved.updates[0]?.body).toContain("[AWS Support Center](https://console.aws.amazon.com/support)");
  });
});
