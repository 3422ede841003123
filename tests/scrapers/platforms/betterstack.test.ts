import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { incidentSchema, type Incident } from "@/lib/incident";
import { betterstackIndexPlatform, betterstackRssPlatform } from "@/scrapers/platforms/betterstack";
import type { ParseContext, Platform } from "@/scrapers/platforms/platform";
import { findIncident, snapshotRejection, parseIncidents } from "@/tests/support/parsing";
import { statedKeys } from "@/tests/simulator/carried";

const FIXTURES = path.join(__dirname, "..", "..", "fixtures", "betterstack");
const ctx: ParseContext = { vendor: "example-bs", source: "index.json", observedAt: "2026-03-02T12:00:00.000Z" };

function parseFixture(platform: Platform, name: string): Promise<Incident[]> {
  return parseIncidents(platform, fs.readFileSync(path.join(FIXTURES, name)), ctx);
}

function parseJson(value: unknown): Promise<Incident[]> {
  return parseIncidents(betterstackIndexPlatform, new TextEncoder().encode(JSON.stringify(value)), ctx);
}

const page = { type: "status_page", attributes: { subdomain: "example-bs" } };

describe("betterstack index.json", () => {
  it("maps a resolved report with its updates oldest first, times in UTC and the worst state as impact", async () => {
    const outage = findIncident(await parseFixture(betterstackIndexPlatform, "index-handwritten.json"), "1001");
    expect(outage).toMatchObject({
      kind: "incident",
      title: "API outage",
      status: "resolved",
      impact: "critical",
      url: "https://status.example-bs.test/incident/1001",
      startedAt: "2026-03-01T08:00:00.000Z",
      resolvedAt: "2026-03-01T08:30:00.000Z",
      components: [{ id: "401", name: "API" }],
    });
    expect(outage.updates.map((u) => [u.id, u.status, u.displayAt])).toEqual([
      ["5001", "downtime", "2026-03-01T08:05:00.000Z"],
      ["5002", "resolved", "2026-03-01T08:30:00.000Z"],
    ]);
  });

  it("keeps an update message as literal text", async () => {
    const outage = findIncident(await parseFixture(betterstackIndexPlatform, "index-handwritten.json"), "1001");
    expect(outage.updates[1]?.body).toBe("The API is back. <script>alert(1)</script> stays literal text.");
  });

  it("schedules a future maintenance and links updates by status_report_id or relationship", async () => {
    const incidents = await parseFixture(betterstackIndexPlatform, "index-handwritten.json");
    expect(findIncident(incidents, "1002")).toMatchObject({
      kind: "maintenance",
      status: "scheduled",
      impact: "maintenance",
      scheduledFor: "2026-03-10T22:00:00.000Z",
      scheduledUntil: "2026-03-10T23:30:00.000Z",
      components: [{ id: "402", name: "Website" }],
    });
    expect(findIncident(incidents, "1002").updates.map((u) => u.id)).toEqual(["5003"]);
    expect(findIncident(incidents, "1003")).toMatchObject({ status: "degraded", impact: "minor", resolvedAt: null });
    expect(findIncident(incidents, "1003").updates.map((u) => u.id)).toEqual(["5004"]);
    for (const incident of incidents) expect(incidentSchema.safeParse(incident).success).toBe(true);
  });

  it("turns an unknown aggregate state into no status and no impact", async () => {
    const report = { id: "9", type: "status_report", attributes: { title: "t", aggregate_state: "exploded" } };
    const [incident] = await parseJson({ data: page, included: [report] });
    expect(incident).toMatchObject({ status: null, impact: null, url: "https://example-bs.betteruptime.com/incident/9" });
  });

  it("rejects an update without a valid published_at, naming the path", async () => {
    const update = { id: "7", type: "status_update", attributes: { message: "m", published_at: "03/02/2026" } };
    const error = await snapshotRejection(parseJson({ data: page, included: [update] }));
    expect(error.kind).toBe("schema");
    expect(error.message).toContain("invalid at included[0].attributes.published_at");
  });

  it("rejects a document that is not a status page and treats an empty body as a failed fetch", async () => {
    expect((await snapshotRejection(parseJson({ data: [] }))).message).toContain("invalid at data");
    expect((await snapshotRejection(parseIncidents(betterstackIndexPlatform, new Uint8Array(), ctx))).kind).toBe("empty");
  });
});

describe("betterstack feed.rss", () => {
  it("groups update items by report, oldest first, with the status from the title's bracket", async () => {
    const outage = findIncident(await parseFixture(betterstackRssPlatform, "feed-handwritten.rss"), "1001");
    expect(outage).toMatchObject({ title: "API outage", status: "resolved", url: "https://status.example-bs.test/incident/1001" });
    expect(outage.updates).toEqual([
      {
        id: "https://status.example-bs.test/incident/1001#update-5001",
        status: "investigating",
        body: "The API is down.",
        createdAt: "2026-03-01T08:05:00.000Z",
        displayAt: "2026-03-01T08:05:00.000Z",
      },
      {
        id: "https://status.example-bs.test/incident/1001#update-5002",
        status: "resolved",
        body: "The API is back. All good.",
        createdAt: "2026-03-01T08:30:00.000Z",
        displayAt: "2026-03-01T08:30:00.000Z",
      },
    ]);
  });

  it("derives an update id from the item's time when it has no guid", async () => {
    const slow = findIncident(await parseFixture(betterstackRssPlatform, "feed-handwritten.rss"), "1003");
    expect(slow.updates).toEqual([
      { id: "~20260302T095500Z", status: null, body: "Pages load slowly.", createdAt: "2026-03-02T09:55:00.000Z", displayAt: "2026-03-02T09:55:00.000Z" },
    ]);
  });

  it("states only the title: old updates leave the feed first and its statuses differ from index.json's", () => {
    expect(statedKeys(betterstackRssPlatform)).toEqual(["title"]);
  });

  it("rejects an item that links to no report, naming the path", async () => {
    const rss = `<rss version="2.0"><channel><title>x</title><item><title>t</title><link>https://s.test/</link></item></channel></rss>`;
    const error = await snapshotRejection(parseIncidents(betterstackRssPlatform, new TextEncoder().encode(rss), ctx));
    expect(error.message).toContain("invalid at items[0].link");
  });
});
