import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Observation, ParsedSnapshot } from "@/lib/derive/observation";
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

function read(platform: Platform, body: string): Promise<ParsedSnapshot> {
  return platform.parse(new TextEncoder().encode(body), ctx);
}

const page = { type: "status_page", attributes: { subdomain: "example-bs" } };

interface Entry {
  id?: unknown;
  type?: unknown;
  attributes?: Record<string, unknown>;
}

/** The hand-written index.json with its entries changed by `edit` (their list is the one to change). */
function editedIndex(edit: (included: Entry[]) => void): string {
  const index = JSON.parse(fs.readFileSync(path.join(FIXTURES, "index-handwritten.json"), "utf8")) as { included: Entry[] };
  edit(index.included);
  return JSON.stringify(index);
}

function attributesOf(included: Entry[], id: string): Record<string, unknown> {
  const attributes = included.find((e) => e.id === id)?.attributes;
  if (!attributes) throw new Error(`no entry ${id}`);
  return attributes;
}

function observationOf(snapshot: ParsedSnapshot, id: string): Observation {
  const observation = snapshot.observations.find((o) => o.incident.id === id);
  if (!observation) throw new Error(`no observation of ${id}`);
  return observation;
}

const report = { id: "9", type: "status_report", attributes: { title: "t", aggregate_state: "degraded", starts_at: "2026-03-01T08:00:00Z" } };

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

  it("skips an update without a valid published_at, naming the path, and states nothing its report works out from its updates", async () => {
    const snapshot = await read(betterstackIndexPlatform, editedIndex((included) => {
      attributesOf(included, "5001").published_at = "03/02/2026";
    }));
    expect(snapshot.warnings.map((w) => w.path)).toEqual(["included[5].attributes.published_at"]);
    const outage = observationOf(snapshot, "1001");
    expect(outage).toMatchObject({ path: "included[3]", partialUpdates: true });
    expect(outage.incident.updates.map((u) => u.id)).toEqual(["5002"]);
    expect(outage.unstated).toEqual(expect.arrayContaining(["components", "impact", "resolvedAt"]));
    expect(outage.unstated).not.toContain("status");
    expect(observationOf(snapshot, "1003")).toMatchObject({ partialUpdates: false, unstated: [] });
  });

  it("counts an unreadable update as missing only from the report that names it among its updates", async () => {
    const snapshot = await read(betterstackIndexPlatform, editedIndex((included) => {
      Object.assign(attributesOf(included, "5004"), { status_report_id: { id: 1003 }, published_at: "soon" });
    }));
    const naming = snapshot.observations.map((o) => o.incident.id === "1002");
    expect(snapshot.observations.map((o) => o.partialUpdates)).toEqual(naming);
    expect(naming).toContain(true);
  });

  it("reads a report without an id as unreadable and one without attributes by its id, and the others as usual", async () => {
    const snapshot = await read(betterstackIndexPlatform, JSON.stringify({ data: page, included: [{ type: "status_report", attributes: {} }, { id: 8, type: "status_report" }, report] }));
    expect(snapshot.unread).toEqual([{ id: null, path: "included[0]" }, { id: "8", path: "included[1]" }]);
    expect(snapshot.warnings.map((w) => w.path)).toEqual(["included[0].id", "included[1].attributes"]);
    expect(snapshot.observations.map((o) => [o.path, o.incident.id])).toEqual([["included[2]", "9"]]);
  });

  it("reads an entry without a type as unreadable: it could have been a report", async () => {
    const snapshot = await read(betterstackIndexPlatform, JSON.stringify({ data: page, included: [{ id: "1" }, report] }));
    expect(snapshot.unread).toEqual([{ id: null, path: "included[0]" }]);
    expect(snapshot.observations[0]?.partialUpdates).toBe(true);
  });

  it("states no title, kind or what the report type decides when they are not text", async () => {
    const attributes = { ...report.attributes, title: 5, report_type: ["maintenance"] };
    const snapshot = await read(betterstackIndexPlatform, JSON.stringify({ data: page, included: [{ ...report, attributes }] }));
    expect(snapshot.warnings.map((w) => w.path)).toEqual(["included[0].attributes.title", "included[0].attributes.report_type"]);
    expect(snapshot.observations[0]?.unstated).toEqual(expect.arrayContaining(["title", "kind", "status", "impact", "scheduledFor", "scheduledUntil"]));
    expect(snapshot.observations[0]?.incident.startedAt).toBe("2026-03-01T08:00:00.000Z");
  });

  it("states no components or impact when an affected resource has no id, naming its path", async () => {
    const attributes = { ...report.attributes, affected_resources: [{ status: "downtime" }] };
    const snapshot = await read(betterstackIndexPlatform, JSON.stringify({ data: page, included: [{ ...report, attributes }] }));
    expect(snapshot.warnings.map((w) => w.path)).toEqual(["included[0].attributes.affected_resources[0].status_page_resource_id"]);
    expect(snapshot.observations[0]?.unstated).toEqual(["components", "impact"]);
    expect(snapshot.observations[0]?.incident.status).toBe("degraded");
  });

  it("states no components of the reports that affect a resource whose name is unreadable", async () => {
    const snapshot = await read(betterstackIndexPlatform, editedIndex((included) => {
      attributesOf(included, "402").public_name = { en: "Website" };
    }));
    expect(snapshot.warnings.map((w) => w.path)).toEqual(["included[2].attributes.public_name"]);
    expect(snapshot.observations.map((o) => [o.incident.id, o.unstated.includes("components")])).toEqual([["1001", false], ["1002", true], ["1003", true]]);
  });

  it("states no start, and for a maintenance no window or status, when starts_at is not a timestamp", async () => {
    const snapshot = await read(betterstackIndexPlatform, editedIndex((included) => {
      attributesOf(included, "1002").starts_at = "next Tuesday";
    }));
    expect(snapshot.warnings.map((w) => w.path)).toEqual(["included[6].attributes.starts_at"]);
    expect(observationOf(snapshot, "1002").unstated).toEqual(expect.arrayContaining(["startedAt", "scheduledFor", "status"]));
    expect(observationOf(snapshot, "1002").unstated).not.toContain("scheduledUntil");
  });

  it("states no links when the page's domain is unreadable", async () => {
    const snapshot = await read(betterstackIndexPlatform, JSON.stringify({ data: { ...page, attributes: { custom_domain: 7 } }, included: [report] }));
    expect(snapshot.warnings.map((w) => w.path)).toEqual(["data.attributes.custom_domain"]);
    expect(snapshot.observations[0]).toMatchObject({ unstated: ["url"], incident: { url: null } });
  });

  it("states as inferred a start taken from the first update and a maintenance status taken from its window", async () => {
    const snapshot = await read(betterstackIndexPlatform, editedIndex((included) => {
      delete attributesOf(included, "1001").starts_at;
    }));
    expect(observationOf(snapshot, "1001")).toMatchObject({ statements: { startedAt: "inferred" }, incident: { startedAt: "2026-03-01T08:05:00.000Z" } });
    expect(observationOf(snapshot, "1002").statements).toEqual({ status: "inferred" });
    expect(observationOf(snapshot, "1003").statements).toBeUndefined();
  });

  it("rejects a document that is not a status page and treats an empty body as a failed fetch", async () => {
    expect((await snapshotRejection(parseJson({ data: [] }))).message).toContain("invalid at data");
    expect((await snapshotRejection(parseIncidents(betterstackIndexPlatform, new Uint8Array(), ctx))).kind).toBe("empty");
  });
});

describe("betterstack index.json component grid", () => {
  const gridOf = async (body: string) => (await read(betterstackIndexPlatform, body)).grid;

  it("states each resource's state in the shared vocabulary, in its section by name, keeping the vendor's word", async () => {
    const { grid, warnings } = await betterstackIndexPlatform.parse(fs.readFileSync(path.join(FIXTURES, "index-handwritten.json")), ctx);
    expect(grid).toEqual({
      components: [
        { id: "401", name: "API", groupId: "Services", isGroup: false, status: "operational", vendorStatus: "operational", vendorChangedAt: null },
        { id: "402", name: "Website", groupId: null, isGroup: false, status: "degraded", vendorStatus: "degraded", vendorChangedAt: null },
        { id: "403", name: "Nightly export", groupId: "Services", isGroup: false, status: "unknown", vendorStatus: "not_monitored", vendorChangedAt: null },
      ],
      unreadIds: [],
      blind: false,
    });
    // not_monitored is Better Stack's own word for a state it does not know: no warning.
    expect(warnings).toEqual([]);
  });

  it("keeps an unknown word as unknown and warns at its path", async () => {
    const body = editedIndex((included) => {
      const api = included.find((e) => e.id === "401");
      if (api?.attributes) api.attributes.status = "on_fire";
    });
    const snapshot = await read(betterstackIndexPlatform, body);
    expect(snapshot.grid?.components.find((c) => c.id === "401")).toMatchObject({ status: "unknown", vendorStatus: "on_fire" });
    expect(snapshot.warnings).toContainEqual({ path: "included[1].attributes.status", message: 'unknown component status "on_fire": kept as unknown' });
  });

  it("keeps the state of a resource whose state or section cannot be read, and of one in a section whose name cannot be read", async () => {
    const body = editedIndex((included) => {
      const [section, api, website] = included;
      if (api?.attributes) api.attributes.status = 7;
      if (website?.attributes) website.attributes.status_page_section_id = { id: 1 };
      if (section?.attributes) section.attributes.name = ["Services"];
    });
    const grid = await gridOf(body);
    expect(grid?.unreadIds).toEqual(["401", "402", "403"]);
    expect(grid?.blind).toBe(false);
  });

  it("judges no resource gone when one of them cannot be identified, and states no grid for a page without resources", async () => {
    const blind = await gridOf(editedIndex((included) => included.push({ type: "status_page_resource", attributes: { public_name: "Anonymous", status: "downtime" } })));
    expect(blind?.blind).toBe(true);
    expect(blind?.components.map((c) => c.id)).toEqual(["401", "402", "403"]);
    expect(await gridOf(JSON.stringify({ data: page, included: [] }))).toBeUndefined();
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

  it("reads an item that links to no report as an update of a report it cannot name, naming the path", async () => {
    const rss = `<rss version="2.0"><channel><title>x</title><item><title>t</title><link>https://s.test/</link></item></channel></rss>`;
    const snapshot = await read(betterstackRssPlatform, rss);
    expect(snapshot.warnings).toEqual([{ path: "items[0].link", message: "no …/incident/<id> link" }]);
    expect(snapshot.unread).toEqual([{ id: null, path: "items[0]" }]);
  });

  it("skips an item whose date is unreadable and states nothing of its report that the latest update decides", async () => {
    const rss = fs.readFileSync(path.join(FIXTURES, "feed-handwritten.rss"), "utf8").replace("Sun, 01 Mar 2026 03:30:00 -0500", "the other day");
    const snapshot = await read(betterstackRssPlatform, rss);
    expect(snapshot.warnings.map((w) => w.path)).toEqual(["items[0].pubDate"]);
    const outage = observationOf(snapshot, "1001");
    expect(outage).toMatchObject({ path: "items[0]", partialUpdates: true, unstated: ["title", "url", "status", "startedAt"] });
    expect(outage.incident.updates.map((u) => u.body)).toEqual(["The API is down."]);
    expect(observationOf(snapshot, "1003").partialUpdates).toBe(false);
  });

  it("reads a report whose every item is undatable as unreadable, by its id", async () => {
    const rss = fs.readFileSync(path.join(FIXTURES, "feed-handwritten.rss"), "utf8").replace("Mon, 02 Mar 2026 09:55:00 GMT", "Monday");
    const snapshot = await read(betterstackRssPlatform, rss);
    expect(snapshot.unread).toEqual([{ id: "1003", path: "items[2]" }]);
    expect(snapshot.observations.map((o) => o.incident.id)).toEqual(["1001"]);
  });
});
