import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { incidentSchema, type Incident } from "@/lib/incident";
import {
  incidentioFeedPlatform,
  incidentioIncidentsPlatform,
  incidentioWidgetPlatform,
} from "@/scrapers/platforms/incidentio";
import type { ParseContext, Platform } from "@/scrapers/platforms/platform";
import { findIncident, snapshotRejection, parseIncidents } from "@/tests/support/parsing";
import { statedKeys } from "@/tests/simulator/carried";

const FIXTURES = path.join(__dirname, "..", "..", "fixtures", "incidentio");
const ctx: ParseContext = { vendor: "example-io", source: "feed.atom", observedAt: "2026-03-02T12:00:00.000Z" };

function parseFixture(platform: Platform, name: string): Promise<Incident[]> {
  return parseIncidents(platform, fs.readFileSync(path.join(FIXTURES, name)), ctx);
}

function parseText(platform: Platform, text: string): Promise<Incident[]> {
  return parseIncidents(platform, new TextEncoder().encode(text), ctx);
}

function atomEntry(content: string, updated = "2026-03-02T09:40:00.000Z"): string {
  return `<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><entry><title>t</title>` +
    `<id>https://s.test/incidents/01JX</id><link href="https://s.test/incidents/01JX"/><updated>${updated}</updated>` +
    `<content type="html"><![CDATA[${content}]]></content></entry></feed>`;
}

describe("incident.io feed", () => {
  it("maps an entry's title, status, components and clean link, keyed by the incident id", async () => {
    const search = findIncident(await parseFixture(incidentioFeedPlatform, "feed-handwritten.atom"), "01JHANDWRITTEN0000000SEARCH");
    expect(search).toMatchObject({
      vendor: "example-io",
      kind: "incident",
      title: "Elevated errors on the Search API",
      status: "identified",
      url: "https://status.example-io.test/incidents/01JHANDWRITTEN0000000SEARCH",
      components: [
        { id: "Search API", name: "Search API" },
        { id: "Dashboard", name: "Dashboard" },
      ],
    });
    expect(incidentSchema.safeParse(search).success).toBe(true);
  });

  it("keeps the latest message as text, script dropped, at its time converted from +02:00", async () => {
    const search = findIncident(await parseFixture(incidentioFeedPlatform, "feed-handwritten.atom"), "01JHANDWRITTEN0000000SEARCH");
    expect(search.updates).toEqual([
      {
        id: "~20260302T094000Z",
        status: "identified",
        body: "We found a bad index and are rolling it back & re-indexing.",
        createdAt: "2026-03-02T09:40:00.000Z",
        displayAt: "2026-03-02T09:40:00.000Z",
      },
    ]);
  });

  it("reads a maintenance status as an in-progress maintenance and an unknown status as null", async () => {
    const incidents = await parseFixture(incidentioFeedPlatform, "feed-handwritten.atom");
    expect(findIncident(incidents, "01JHANDWRITTEN0000DBUPGRADE")).toMatchObject({ kind: "maintenance", status: "in_progress", impact: "maintenance" });
    expect(findIncident(incidents, "01JHANDWRITTEN00000NEWSTATE").status).toBeNull();
    expect(findIncident(incidents, "01JHANDWRITTEN00000WEBHOOK")).toMatchObject({ status: "resolved", components: [] });
  });

  it("reads the RSS variant with its -0700 pubDate as UTC", async () => {
    const [login] = await parseFixture(incidentioFeedPlatform, "feed-handwritten.rss");
    expect(login).toMatchObject({ id: "01JHANDWRITTEN000000LOGIN", status: "monitoring", components: [{ id: "Login", name: "Login" }] });
    expect(login?.updates[0]).toMatchObject({ createdAt: "2026-03-02T11:15:00.000Z", body: "A fix is out; we are watching sign-ins." });
  });

  it("states only title and status, so standing in for incidents.json it erases nothing the JSON said", () => {
    expect(statedKeys(incidentioFeedPlatform)).toEqual(["title", "status"]);
    expect(incidentioFeedPlatform.profile.presence).toEqual({ kind: "recent", limit: null });
  });

  it("rejects an entry without a Status line, naming the path", async () => {
    const error = await snapshotRejection(parseText(incidentioFeedPlatform, atomEntry("<p>a new layout</p>")));
    expect(error.kind).toBe("schema");
    expect(error.message).toBe("example-io: snapshot from feed.atom is invalid at items[0].content: no <b>Status: …</b> line");
  });

  it("rejects an entry date that is not a timestamp, naming the path", async () => {
    const error = await snapshotRejection(parseText(incidentioFeedPlatform, atomEntry("<b>Status: Resolved</b>", "yesterday")));
    expect(error.message).toContain("invalid at items[0].updated");
  });

  it("treats an empty body as a failed fetch and HTML as unparseable", async () => {
    expect((await snapshotRejection(parseText(incidentioFeedPlatform, ""))).kind).toBe("empty");
    expect((await snapshotRejection(parseText(incidentioFeedPlatform, "<html><body>Loading…</body></html>"))).kind).toBe("unparseable");
  });
});

describe("incident.io widget API", () => {
  it("maps an ongoing incident's impact, components and last message, kept as literal text", async () => {
    const search = findIncident(await parseFixture(incidentioWidgetPlatform, "widget-handwritten.json"), "01JHANDWRITTEN0000000SEARCH");
    expect(search).toMatchObject({ kind: "incident", status: "identified", impact: "major", scheduledFor: null });
    expect(search.components.map((c) => c.id)).toEqual(["01JCOMPONENTSEARCH", "01JCOMPONENTDASH"]);
    expect(search.updates).toEqual([
      {
        id: "~20260302T094000Z",
        status: "identified",
        body: "We found a bad index <script>alert(1)</script> and are rolling it back.",
        createdAt: "2026-03-02T09:40:00.000Z",
        displayAt: "2026-03-02T09:40:00.000Z",
      },
    ]);
  });

  it("turns unknown statuses and impacts into null and an empty message into no update", async () => {
    const odd = findIncident(await parseFixture(incidentioWidgetPlatform, "widget-handwritten.json"), "01JHANDWRITTEN00000NEWSTATE");
    expect(odd).toMatchObject({ status: null, impact: null, updates: [] });
  });

  it("maps in-progress and scheduled maintenances with their windows in UTC", async () => {
    const incidents = await parseFixture(incidentioWidgetPlatform, "widget-handwritten.json");
    expect(findIncident(incidents, "01JHANDWRITTEN0000DBUPGRADE")).toMatchObject({
      kind: "maintenance",
      status: "in_progress",
      impact: "maintenance",
      scheduledFor: "2026-03-02T01:00:00.000Z",
      scheduledUntil: "2026-03-02T03:00:00.000Z",
    });
    expect(findIncident(incidents, "01JHANDWRITTEN000000NETWORK")).toMatchObject({
      status: "scheduled",
      scheduledFor: "2026-03-10T03:00:00.000Z",
      scheduledUntil: "2026-03-10T05:00:00.000Z",
    });
    for (const incident of incidents) expect(incidentSchema.safeParse(incident).success).toBe(true);
  });

  it("lists only what is ongoing and states no update list", () => {
    expect(incidentioWidgetPlatform.profile.presence).toEqual({ kind: "active" });
    expect(statedKeys(incidentioWidgetPlatform)).not.toContain("updates");
  });

  it("rejects a bad update time and a payload without ongoing_incidents, naming the path", async () => {
    const bad = { ongoing_incidents: [{ id: "a", name: "n", last_update_at: "2026-03-02 10:00" }] };
    const error = await snapshotRejection(parseText(incidentioWidgetPlatform, JSON.stringify(bad)));
    expect(error.message).toMatch(/invalid at ongoing_incidents\[0\]\.last_update_at: timestamp has no UTC offset/);
    expect((await snapshotRejection(parseText(incidentioWidgetPlatform, "{}"))).message).toContain("invalid at ongoing_incidents");
  });
});

describe("incident.io Statuspage-compatible API", () => {
  it("reads incidents.json with the Statuspage mapping under its own name", async () => {
    const [webhook] = await parseFixture(incidentioIncidentsPlatform, "incidents-handwritten.json");
    expect(incidentioIncidentsPlatform.name).toBe("incidentio-incidents");
    expect(webhook).toMatchObject({
      id: "01JHANDWRITTEN00000WEBHOOK",
      impact: "minor",
      url: "https://status.example-io.test/incidents/01JHANDWRITTEN00000WEBHOOK",
      resolvedAt: "2026-02-27T18:05:00.000Z",
    });
    expect(webhook?.updates.map((u) => u.id)).toEqual(["01JUPDATE2", "01JUPDATE1"]);
  });
});
