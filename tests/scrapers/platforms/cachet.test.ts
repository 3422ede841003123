import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { incidentSchema, type Incident } from "@/lib/incident";
import { cachetV2Platform, cachetV3Platform } from "@/scrapers/platforms/cachet";
import type { ParseContext, Platform } from "@/scrapers/platforms/platform";
import { corpusPath, describeCorpus } from "@/tests/support/corpus";
import { findIncident, snapshotRejection, parseIncidents } from "@/tests/support/parsing";
import { statedKeys } from "@/tests/simulator/carried";

const FIXTURES = path.join(__dirname, "..", "..", "fixtures", "cachet");
const ctx: ParseContext = {
  vendor: "example-cachet",
  source: "https://status.example-cachet.test/api/v1/incidents?sort=id&order=desc&per_page=50",
  observedAt: "2026-03-02T12:00:00.000Z",
};

function parseFile(platform: Platform, file: string): Promise<Incident[]> {
  return parseIncidents(platform, fs.readFileSync(file), ctx);
}

function parseJson(platform: Platform, value: unknown): Promise<Incident[]> {
  return parseIncidents(platform, new TextEncoder().encode(JSON.stringify(value)), ctx);
}

describe("cachet 2.x API v1 incidents", () => {
  const fixture = path.join(FIXTURES, "v2-incidents-handwritten.json");

  it("maps a fixed incident: zone-less times read as UTC, its message first, updates by time", async () => {
    const login = findIncident(await parseFile(cachetV2Platform, fixture), "1");
    expect(login).toMatchObject({
      kind: "incident",
      title: "Login failures",
      status: "fixed",
      impact: null,
      url: "https://status.example-cachet.test/incidents/1",
      startedAt: "2026-03-01T10:00:00.000Z",
      resolvedAt: "2026-03-01T11:00:00.000Z",
      components: [{ id: "3", name: "3" }],
    });
    expect(login.updates.map((u) => [u.id, u.status, u.createdAt, u.body])).toEqual([
      ["~20260301T100200Z", null, "2026-03-01T10:02:00.000Z", "Users cannot log in. <script>alert(1)</script>"],
      ["11", "identified", "2026-03-01T10:30:00.000Z", "We found the cause."],
      ["12", "fixed", "2026-03-01T11:00:00.000Z", "Logins work again."],
    ]);
  });

  it("maps a scheduled incident as a maintenance at its scheduled time", async () => {
    const upgrade = findIncident(await parseFile(cachetV2Platform, fixture), "2");
    expect(upgrade).toMatchObject({
      kind: "maintenance",
      status: "scheduled",
      impact: "maintenance",
      scheduledFor: "2026-03-10T22:00:00.000Z",
      startedAt: "2026-03-01T12:00:00.000Z",
      components: [],
    });
  });

  it("keeps an explicit offset, turns an unknown status into null and gives an empty message no update", async () => {
    const odd = findIncident(await parseFile(cachetV2Platform, fixture), "3");
    expect(odd).toMatchObject({ status: null, startedAt: "2026-03-02T09:00:00.000Z", updates: [] });
    expect(odd.url).toBe("https://status.example-cachet.test/incidents/3");
  });

  it("states neither impact nor postmortem", () => {
    expect(statedKeys(cachetV2Platform)).not.toContain("impact");
    expect(statedKeys(cachetV2Platform)).not.toContain("postmortem");
    expect(cachetV2Platform.profile.presence).toEqual({ kind: "recent", limit: null });
  });

  it("rejects an impossible time and a non-numeric status, naming the path", async () => {
    const base = { id: 1, name: "n", status: 1, created_at: "2026-02-30 10:00:00" };
    expect((await snapshotRejection(parseJson(cachetV2Platform, { data: [base] }))).message).toMatch(
      /invalid at data\[0\]\.created_at: impossible date/,
    );
    const status = { ...base, created_at: null, status: "fixed" };
    expect((await snapshotRejection(parseJson(cachetV2Platform, { data: [status] }))).message).toContain("invalid at data[0].status");
  });

  it("treats an empty body as a failed fetch", async () => {
    expect((await snapshotRejection(parseIncidents(cachetV2Platform, new Uint8Array(), ctx))).kind).toBe("empty");
  });
});

describe("cachet 3.x incidents", () => {
  const fixture = path.join(FIXTURES, "v3-incidents-handwritten.json");

  it("maps an incident with its included updates and components", async () => {
    const docs = findIncident(await parseFile(cachetV3Platform, fixture), "2");
    expect(docs).toMatchObject({
      title: "Documentation slow",
      status: "identified",
      startedAt: "2026-03-02T08:31:59.000Z",
      components: [{ id: "7", name: "Documentation" }],
    });
    expect(docs.updates.map((u) => [u.id, u.status, u.displayAt])).toEqual([
      ["~20260302T083210Z", null, "2026-03-02T08:31:59.000Z"],
      ["21", "identified", "2026-03-02T09:00:00.000Z"],
    ]);
  });

  it("reads a string status value and resolves at the first fixed update", async () => {
    const dns = findIncident(await parseFile(cachetV3Platform, fixture), "1");
    expect(dns).toMatchObject({ status: "fixed", resolvedAt: "2026-03-01T10:00:00.000Z" });
  });

  it("rejects a status without a value, naming the path", async () => {
    const incident = { id: "1", attributes: { name: "n", status: { human: "Fixed" } } };
    const error = await snapshotRejection(parseJson(cachetV3Platform, { data: [incident] }));
    expect(error.message).toContain("invalid at data[0].attributes.status.value");
  });
});

describeCorpus("cachet samples", () => {
  it("parses the v2 incident list sample and refuses its updates list as an incident list", async () => {
    const [incident] = await parseFile(cachetV2Platform, corpusPath("samples", "cachet-v2-incidents", "andygrunwald-cachet-incidents_test-GetAll.json"));
    expect(incidentSchema.safeParse(incident).success).toBe(true);
    expect(incident).toMatchObject({ id: "1", status: "fixed", startedAt: "2015-08-01T12:00:00.000Z", components: [] });
    const updates = corpusPath("samples", "cachet-v2-incidents", "andygrunwald-cachet-incidents_test-GetAllUpdates.json");
    expect((await snapshotRejection(parseFile(cachetV2Platform, updates))).message).toContain("invalid at data[0].name");
  });

  it("parses the v3 documentation example", async () => {
    const incidents = await parseFile(cachetV3Platform, corpusPath("samples", "cachet-v3-incidents", "cachethq-docs-example.json"));
    for (const incident of incidents) expect(incidentSchema.safeParse(incident).success).toBe(true);
    expect(findIncident(incidents, "2")).toMatchObject({ status: "investigating", startedAt: "2024-10-27T08:31:59.000Z" });
    expect(findIncident(incidents, "1")).toMatchObject({ status: "fixed", title: "DNS Provider Outage" });
  });
});
