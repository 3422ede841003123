import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { ParsedSnapshot } from "@/lib/derive/observation";
import { incidentSchema, type Incident } from "@/lib/incident";
import { instatusSummaryPlatform, jsDateToIso } from "@/scrapers/platforms/instatus";
import type { ParseContext } from "@/scrapers/platforms/platform";
import { corpusPath, describeCorpus } from "@/tests/support/corpus";
import { findIncident, snapshotRejection, parseIncidents } from "@/tests/support/parsing";
import { statedKeys } from "@/tests/simulator/carried";

const FIXTURES = path.join(__dirname, "..", "..", "fixtures", "instatus");
const ctx: ParseContext = { vendor: "example", source: "summary.json", observedAt: "2026-03-02T12:00:00.000Z" };

function parseFile(file: string): Promise<Incident[]> {
  return parseIncidents(instatusSummaryPlatform, fs.readFileSync(file), ctx);
}

function parseJson(value: unknown): Promise<Incident[]> {
  return parseIncidents(instatusSummaryPlatform, new TextEncoder().encode(JSON.stringify(value)), ctx);
}

function read(value: unknown): Promise<ParsedSnapshot> {
  return instatusSummaryPlatform.parse(new TextEncoder().encode(JSON.stringify(value)), ctx);
}

const api = { name: "API errors", started: "2026-03-02T08:15:00Z", status: "IDENTIFIED", impact: "PARTIALOUTAGE", url: "https://s.test/incident/api1" };
const upgrade = { name: "Upgrade", start: "2026-03-04T03:00:00Z", status: "NOTSTARTEDYET", duration: 60, url: "https://s.test/maintenance/db1" };

describe("instatus summary.json", () => {
  it("reads JavaScript Date.toString() times with their GMT offset as UTC", () => {
    expect(jsDateToIso("Sat Jun 11 2022 18:55:50 GMT+0000 (Coordinated Universal Time)")).toBe("2022-06-11T18:55:50.000Z");
    expect(jsDateToIso("Mon Mar 02 2026 10:15:00 GMT+0200 (Eastern European Standard Time)")).toBe("2026-03-02T08:15:00.000Z");
    expect(jsDateToIso("2026-03-02T07:00:00.000Z")).toBe("2026-03-02T07:00:00.000Z");
  });

  it("maps an active incident keyed by its link's id, its name kept as literal text", async () => {
    const api = findIncident(await parseFile(path.join(FIXTURES, "summary-handwritten.json")), "clhandwritten0001api");
    expect(api).toEqual({
      vendor: "example",
      id: "clhandwritten0001api",
      kind: "incident",
      title: "API errors <img src=x onerror=alert(1)>",
      status: "identified",
      impact: "major",
      url: "https://status.example-instatus.test/incident/clhandwritten0001api",
      startedAt: "2026-03-02T08:15:00.000Z",
      resolvedAt: null,
      scheduledFor: null,
      scheduledUntil: null,
      components: [],
      updates: [],
      postmortem: null,
    });
  });

  it("turns an unknown status and impact into null", async () => {
    const odd = findIncident(await parseFile(path.join(FIXTURES, "summary-handwritten.json")), "clhandwritten0002odd");
    expect([odd.status, odd.impact]).toEqual([null, null]);
  });

  it("schedules a maintenance from its start and duration in minutes", async () => {
    const db = findIncident(await parseFile(path.join(FIXTURES, "summary-handwritten.json")), "clhandwritten0003db");
    expect(db).toMatchObject({
      kind: "maintenance",
      status: "scheduled",
      impact: "maintenance",
      scheduledFor: "2026-03-04T03:00:00.000Z",
      scheduledUntil: "2026-03-04T04:30:00.000Z",
    });
  });

  it("states a maintenance's start only as worked out from its planned window", async () => {
    const snapshot = await read({ page: {}, activeMaintenances: [upgrade] });
    expect(snapshot.observations[0]?.statements).toEqual({ startedAt: "inferred" });
    expect(snapshot.observations[0]?.incident.startedAt).toBe("2026-03-04T03:00:00.000Z");
  });

  it("leaves the end unknown when a duration would end the window past year 9999", async () => {
    for (const duration of [1e21, "99999999999999999999", 6e9]) {
      const summary = { page: {}, activeMaintenances: [{ name: "m", start: "2026-03-04T03:00:00Z", duration, url: "https://s.test/maintenance/abc" }] };
      const [maintenance] = await parseJson(summary);
      expect(maintenance).toMatchObject({ scheduledFor: "2026-03-04T03:00:00.000Z", scheduledUntil: null });
    }
  });

  it("lists only active events and never claims updates or components", () => {
    expect(instatusSummaryPlatform.profile.presence).toEqual({ kind: "active" });
    expect(statedKeys(instatusSummaryPlatform)).not.toContain("updates");
    expect(statedKeys(instatusSummaryPlatform)).not.toContain("components");
  });

  it("states no start for an unreadable start time, naming the path, and keeps the rest of the incident", async () => {
    const snapshot = await read({ page: {}, activeIncidents: [{ ...api, started: "Saturday noon" }] });
    expect(snapshot.warnings.map((w) => w.path)).toEqual(["activeIncidents[0].started"]);
    const [observation] = snapshot.observations;
    expect(observation).toMatchObject({ path: "activeIncidents[0]", unstated: ["startedAt"], incident: { id: "api1", status: "identified", impact: "major" } });
  });

  it("reads an event whose link holds no id as unreadable, and the others as usual", async () => {
    const snapshot = await read({ page: {}, activeIncidents: [{ ...api, url: "https://s.test/" }, api] });
    expect(snapshot.unread).toEqual([{ id: null, path: "activeIncidents[0]" }]);
    expect(snapshot.warnings.map((w) => w.path)).toEqual(["activeIncidents[0].url"]);
    expect(snapshot.observations.map((o) => [o.path, o.incident.id])).toEqual([["activeIncidents[1]", "api1"]]);
  });

  it("keys an event by its own id when its link is unreadable, stating no link", async () => {
    const snapshot = await read({ page: {}, activeIncidents: [{ ...api, id: "own1", url: 42 }] });
    expect(snapshot.observations[0]).toMatchObject({ unstated: ["url"], incident: { id: "own1", url: null } });
  });

  it("reads an event whose own id is not text as unreadable, since its link's id may not be its key", async () => {
    const snapshot = await read({ page: {}, activeIncidents: [{ ...api, id: 7 }] });
    expect(snapshot.unread).toEqual([{ id: null, path: "activeIncidents[0]" }]);
    expect(snapshot.observations).toEqual([]);
  });

  it("states no title or status that is not text, and keeps the rest", async () => {
    const snapshot = await read({ page: {}, activeIncidents: [{ ...api, name: { en: "API" }, status: 3 }] });
    expect(snapshot.warnings.map((w) => w.path)).toEqual(["activeIncidents[0].name", "activeIncidents[0].status"]);
    expect(snapshot.observations[0]).toMatchObject({ unstated: ["title", "status"], incident: { impact: "major", startedAt: "2026-03-02T08:15:00.000Z" } });
  });

  it("states neither start nor window of a maintenance whose start is unreadable, and no end for an unreadable duration", async () => {
    const snapshot = await read({ page: {}, activeMaintenances: [{ ...upgrade, start: "tomorrow" }, { ...upgrade, url: "https://s.test/maintenance/db2", duration: [60] }] });
    expect(snapshot.warnings.map((w) => w.path)).toEqual(["activeMaintenances[0].start", "activeMaintenances[1].duration"]);
    expect(snapshot.observations.map((o) => o.unstated)).toEqual([["startedAt", "scheduledFor", "scheduledUntil"], ["scheduledUntil"]]);
    expect(snapshot.observations[1]?.incident).toMatchObject({ kind: "maintenance", scheduledFor: "2026-03-04T03:00:00.000Z", scheduledUntil: null });
  });

  it("reads an event list that is no list as unreadable, and the other list as usual", async () => {
    const snapshot = await read({ page: {}, activeIncidents: [api], activeMaintenances: "none" });
    expect(snapshot.unread).toEqual([{ id: null, path: "activeMaintenances" }]);
    expect(snapshot.observations.map((o) => o.incident.id)).toEqual(["api1"]);
  });

  it("keeps the first of two events with one id", async () => {
    const snapshot = await read({ page: {}, activeIncidents: [api, { ...api, name: "Later copy" }] });
    expect(snapshot.observations.map((o) => o.incident.title)).toEqual(["API errors"]);
  });

  it("rejects a payload without a page as not a summary", async () => {
    expect((await snapshotRejection(parseJson({ activeIncidents: [api] }))).message).toContain("invalid at page");
  });

  it("treats empty and non-JSON bodies as failed fetches", async () => {
    expect((await snapshotRejection(parseIncidents(instatusSummaryPlatform, new Uint8Array(), ctx))).kind).toBe("empty");
    expect((await snapshotRejection(parseIncidents(instatusSummaryPlatform, new TextEncoder().encode("<html>"), ctx))).kind).toBe("unparseable");
  });
});

describeCorpus("instatus summary.json documentation example", () => {
  it("parses the documented example into a valid incident and maintenance", async () => {
    const incidents = await parseFile(corpusPath("samples", "instatus-summary", "instatus-docs-public-data-example.json"));
    for (const incident of incidents) expect(incidentSchema.safeParse(incident).success).toBe(true);
    expect(findIncident(incidents, "cl4a8n3070721qtmzvts760c4")).toMatchObject({
      status: "investigating",
      impact: "critical",
      startedAt: "2022-06-11T18:55:50.000Z",
    });
    expect(findIncident(incidents, "cl4a8nlv50918qtmzdlw60ivu")).toMatchObject({
      kind: "maintenance",
      scheduledFor: "2022-06-11T18:55:54.000Z",
      scheduledUntil: "2022-06-11T19:55:54.000Z",
    });
  });
});
