import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { ParsedSnapshot } from "@/lib/derive/observation";
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

function read(platform: Platform, text: string): Promise<ParsedSnapshot> {
  return platform.parse(new TextEncoder().encode(text), ctx);
}

function entry(content: string, updated = "2026-03-02T09:40:00.000Z", key = "01JX"): string {
  const link = key === "" ? "" : `<id>https://s.test/incidents/${key}</id><link href="https://s.test/incidents/${key}"/>`;
  return `<entry><title>t</title>${link}<updated>${updated}</updated><content type="html"><![CDATA[${content}]]></content></entry>`;
}

function atomFeed(...entries: string[]): string {
  return `<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom">${entries.join("")}</feed>`;
}

function atomEntry(content: string, updated?: string): string {
  return atomFeed(entry(content, updated));
}

const searching = { id: "01JSEARCH", name: "Search errors", status: "investigating", last_update_at: "2026-03-02T09:00:00Z", last_update_message: "Looking." };

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

  it("states title, status and the latest message as a partial list, so standing in for incidents.json it erases nothing the JSON said", () => {
    expect(statedKeys(incidentioFeedPlatform)).toEqual(["title", "status", "updates"]);
    expect(incidentioFeedPlatform.profile.updates).toMatchObject({ list: "partial", text: "rendered", createdAt: false });
    expect(incidentioFeedPlatform.profile.presence).toEqual({ kind: "recent", limit: null });
  });

  it("reads an entry without a Status line for its title and link only, naming the path", async () => {
    const snapshot = await read(incidentioFeedPlatform, atomEntry("<p>a new layout</p>"));
    expect(snapshot.warnings).toEqual([{ path: "items[0].content", message: "no <b>Status: …</b> line" }]);
    const [observation] = snapshot.observations;
    expect(observation).toMatchObject({ path: "items[0]", incident: { id: "01JX", title: "t", url: "https://s.test/incidents/01JX" } });
    expect(observation?.unstated).toEqual(expect.arrayContaining(["status", "kind", "impact", "components", "updates"]));
  });

  it("skips the message of an entry whose date is not a timestamp, naming the path, and reads the rest of it", async () => {
    const snapshot = await read(incidentioFeedPlatform, atomEntry("<b>Status: Resolved</b><p>Fixed.</p>", "yesterday"));
    expect(snapshot.warnings.map((w) => w.path)).toEqual(["items[0].updated"]);
    const [observation] = snapshot.observations;
    expect(observation?.incident).toMatchObject({ status: "resolved", updates: [] });
    expect(observation?.partialUpdates).toBe(true);
  });

  it("reads an entry without a link, guid or id as unreadable and the others as usual", async () => {
    const snapshot = await read(incidentioFeedPlatform, atomFeed(entry("<b>Status: Resolved</b>", undefined, ""), entry("<b>Status: Monitoring</b>")));
    expect(snapshot.unread).toEqual([{ id: null, path: "items[0]" }]);
    expect(snapshot.warnings).toEqual([{ path: "items[0]", message: "entry has no /incidents/<id> link, guid or id" }]);
    expect(snapshot.observations.map((o) => [o.path, o.incident.id, o.incident.status])).toEqual([["items[1]", "01JX", "monitoring"]]);
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

  it("lists only what is ongoing and states its last message as a partial update list", () => {
    expect(incidentioWidgetPlatform.profile.presence).toEqual({ kind: "active" });
    expect(statedKeys(incidentioWidgetPlatform)).toContain("updates");
    expect(incidentioWidgetPlatform.profile.updates).toMatchObject({ list: "partial", text: "exact", createdAt: false });
  });

  it("reads an event without an id as unreadable and the others as usual", async () => {
    const snapshot = await read(incidentioWidgetPlatform, JSON.stringify({ ongoing_incidents: [{ name: "No id" }, searching] }));
    expect(snapshot.unread).toEqual([{ id: null, path: "ongoing_incidents[0]" }]);
    expect(snapshot.warnings.map((w) => w.path)).toEqual(["ongoing_incidents[0].id"]);
    expect(snapshot.observations.map((o) => [o.path, o.incident.id])).toEqual([["ongoing_incidents[1]", "01JSEARCH"]]);
  });

  it("states no title or impact when they are not text, and keeps the rest of the event", async () => {
    const snapshot = await read(incidentioWidgetPlatform, JSON.stringify({ ongoing_incidents: [{ ...searching, name: 5, current_worst_impact: ["full_outage"] }] }));
    expect(snapshot.warnings.map((w) => w.path)).toEqual(["ongoing_incidents[0].name", "ongoing_incidents[0].current_worst_impact"]);
    const [observation] = snapshot.observations;
    expect(observation?.unstated).toEqual(["title", "impact"]);
    expect(observation?.incident).toMatchObject({ status: "investigating", updates: [{ body: "Looking." }] });
  });

  it("states no components when one of them has no id, naming its path", async () => {
    const components = [{ name: "Search API" }, { id: "01JCOMPONENTDASH", name: "Dashboard" }];
    const snapshot = await read(incidentioWidgetPlatform, JSON.stringify({ ongoing_incidents: [{ ...searching, affected_components: components }] }));
    expect(snapshot.warnings.map((w) => w.path)).toEqual(["ongoing_incidents[0].affected_components[0].id"]);
    expect(snapshot.observations[0]?.unstated).toEqual(["components"]);
  });

  it("skips the last message when its time has no offset, naming the path, and reads the rest of the event", async () => {
    const snapshot = await read(incidentioWidgetPlatform, JSON.stringify({ ongoing_incidents: [{ ...searching, last_update_at: "2026-03-02 10:00" }] }));
    expect(snapshot.warnings).toEqual([expect.objectContaining({ path: "ongoing_incidents[0].last_update_at", message: expect.stringMatching(/timestamp has no UTC offset/) })]);
    const [observation] = snapshot.observations;
    expect(observation).toMatchObject({ partialUpdates: true, unstated: [], incident: { title: "Search errors", updates: [] } });
  });

  it("skips the last message of an event whose status is unreadable, whose status it would carry", async () => {
    const snapshot = await read(incidentioWidgetPlatform, JSON.stringify({ ongoing_incidents: [{ ...searching, status: { label: "Investigating" } }] }));
    expect(snapshot.warnings.map((w) => w.path)).toEqual(["ongoing_incidents[0].status"]);
    expect(snapshot.observations[0]).toMatchObject({ unstated: ["status"], partialUpdates: true, incident: { updates: [] } });
  });

  it("skips no message when the event has none, even if its time is unreadable", async () => {
    const snapshot = await read(incidentioWidgetPlatform, JSON.stringify({ ongoing_incidents: [{ ...searching, last_update_at: "now", last_update_message: "" }] }));
    expect(snapshot.observations[0]).toMatchObject({ partialUpdates: false, incident: { updates: [] } });
  });

  it("states neither start nor window of a maintenance whose start is unreadable", async () => {
    const maintenance = { id: "01JMAINT", name: "Upgrade", status: "maintenance_in_progress", started_at: "soon", scheduled_end_at: "2026-03-02T03:00:00Z" };
    const snapshot = await read(incidentioWidgetPlatform, JSON.stringify({ ongoing_incidents: [], in_progress_maintenances: [maintenance] }));
    expect(snapshot.warnings.map((w) => w.path)).toEqual(["in_progress_maintenances[0].started_at"]);
    expect(snapshot.observations[0]?.unstated).toEqual(["startedAt", "scheduledFor"]);
    expect(snapshot.observations[0]?.incident.scheduledUntil).toBe("2026-03-02T03:00:00.000Z");
  });

  it("reads a maintenance list that is no list as unreadable, and still rejects a payload without ongoing_incidents", async () => {
    const snapshot = await read(incidentioWidgetPlatform, JSON.stringify({ ongoing_incidents: [searching], scheduled_maintenances: "none" }));
    expect(snapshot.unread).toEqual([{ id: null, path: "scheduled_maintenances" }]);
    expect(snapshot.observations.map((o) => o.incident.id)).toEqual(["01JSEARCH"]);
    expect((await snapshotRejection(parseText(incidentioWidgetPlatform, "{}"))).message).toContain("invalid at ongoing_incidents");
  });
});

describe("incident.io widget API component grid", () => {
  const widget = (events: unknown[], maintenances: unknown[] = []) => JSON.stringify({ ongoing_incidents: events, in_progress_maintenances: maintenances });

  it("states the current state of each component an event affects, its group by name, as a grid of the affected components", async () => {
    const { grid, warnings } = await incidentioWidgetPlatform.parse(fs.readFileSync(path.join(FIXTURES, "widget-handwritten.json")), ctx);
    expect(grid?.partial).toBe("affected");
    expect(grid?.blind).toBe(false);
    expect(grid?.components).toEqual([
      { id: "01JCOMPONENTSEARCH", name: "Search API", groupId: "API", isGroup: false, status: "partial-outage", vendorStatus: "partial_outage", vendorChangedAt: null },
      { id: "01JCOMPONENTDASH", name: "Dashboard", groupId: null, isGroup: false, status: "degraded", vendorStatus: "degraded_performance", vendorChangedAt: null },
      { id: "01JCOMPONENTAPI", name: "API", groupId: null, isGroup: false, status: "maintenance", vendorStatus: "under_maintenance", vendorChangedAt: null },
    ]);
    expect(warnings.filter((w) => w.path.includes("affected_components"))).toEqual([]);
  });

  it("states an empty grid when nothing is ongoing: every component it listed before is unaffected now", async () => {
    const { grid } = await read(incidentioWidgetPlatform, widget([]));
    expect(grid).toEqual({ components: [], unreadIds: [], blind: false, partial: "affected" });
  });

  it("keeps an unknown state as unknown with a warning at its path, and a component listed by two events once", async () => {
    const first = { ...searching, affected_components: [{ id: "c1", name: "Search", current_status: "on_fire" }] };
    const second = { ...searching, id: "01JOTHER", affected_components: [{ id: "c1", name: "Search", current_status: "on_fire" }] };
    const snapshot = await read(incidentioWidgetPlatform, widget([first, second]));
    expect(snapshot.grid?.components.map((c) => [c.id, c.status, c.vendorStatus])).toEqual([["c1", "unknown", "on_fire"]]);
    expect(snapshot.warnings).toContainEqual({ path: "ongoing_incidents[0].affected_components[0].current_status", message: 'unknown component status "on_fire": kept as unknown' });
  });

  it("keeps the state of a component it cannot read, and judges none unaffected when an event or a component id cannot be read", async () => {
    const broken = { ...searching, affected_components: [{ id: "c1", name: "Search", current_status: 3 }, { id: "c2", name: "Web", current_status: "operational" }] };
    const snapshot = await read(incidentioWidgetPlatform, widget([broken]));
    expect(snapshot.grid).toMatchObject({ unreadIds: ["c1"], blind: false });
    expect(snapshot.grid?.components.map((c) => c.id)).toEqual(["c2"]);
    expect((await read(incidentioWidgetPlatform, widget([{ name: "No id" }]))).grid?.blind).toBe(true);
    expect((await read(incidentioWidgetPlatform, widget([{ ...searching, affected_components: [{ name: "No id", current_status: "operational" }] }]))).grid?.blind).toBe(true);
    expect((await read(incidentioWidgetPlatform, widget([{ ...searching, affected_components: "all" }]))).grid?.blind).toBe(true);
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
