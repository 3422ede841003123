import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
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

  it("rejects an unreadable start and a link without an id, naming the path", async () => {
    const base = { page: {}, activeIncidents: [{ name: "n", url: "https://s.test/incident/abc", started: "Saturday noon" }] };
    expect((await snapshotRejection(parseJson(base))).message).toContain("invalid at activeIncidents[0].started");
    const noId = { page: {}, activeIncidents: [{ name: "n", url: "https://s.test/" }] };
    expect((await snapshotRejection(parseJson(noId))).message).toContain("invalid at activeIncidents[0].url");
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
