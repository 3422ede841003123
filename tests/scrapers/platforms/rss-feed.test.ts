import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
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

  it("says only title, link, time and text, and lists the most recent items", () => {
    expect(statedKeys(rssFeedPlatform)).toEqual(["title", "url", "startedAt", "updates"]);
    expect(rssFeedPlatform.profile.presence).toEqual({ kind: "recent", limit: null });
  });

  it("rejects an item with neither guid, id nor link, and an unreadable date, naming the path", async () => {
    const rss = (item: string) => `<rss version="2.0"><channel><title>c</title>${item}</channel></rss>`;
    expect((await snapshotRejection(parseText(rss("<item><title>t</title></item>")))).message).toContain("invalid at items[0]: item has no guid, id or link");
    expect((await snapshotRejection(parseText(rss("<item><guid>g</guid><pubDate>someday</pubDate></item>")))).message).toContain("invalid at items[0].pubDate");
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
