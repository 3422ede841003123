import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Observation, ParsedSnapshot } from "@/lib/derive/observation";
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

function read(platform: Platform, value: unknown): Promise<ParsedSnapshot> {
  return platform.parse(new TextEncoder().encode(JSON.stringify(value)), ctx);
}

function observationOf(snapshot: ParsedSnapshot, id: string): Observation {
  const observation = snapshot.observations.find((o) => o.incident.id === id);
  if (!observation) throw new Error(`no observation of ${id}`);
  return observation;
}

/** A hand-written fixture as JSON, to edit. */
function fixtureJson<T>(name: string): T {
  return JSON.parse(fs.readFileSync(path.join(FIXTURES, name), "utf8")) as T;
}

interface V2Fixture {
  data: Array<Record<string, unknown> & { updates?: Array<Record<string, unknown>> }>;
}

interface V3Fixture {
  data: Array<{ id: string; attributes: Record<string, unknown>; relationships?: unknown }>;
  included?: unknown;
}

const opened = { id: 1, name: "n", status: 1, message: "m", created_at: "2026-03-01 10:00:00" };

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

  it("states a maintenance only as recognised by its scheduled status", () => {
    expect(cachetV2Platform.profile.fields.kind).toBe("inferred");
    expect(cachetV3Platform.profile.fields.kind).toBe("inferred");
  });

  it("states no start and skips the opening message for an impossible creation time, naming the path", async () => {
    const snapshot = await read(cachetV2Platform, { data: [{ ...opened, created_at: "2026-02-30 10:00:00" }] });
    expect(snapshot.warnings).toEqual([expect.objectContaining({ path: "data[0].created_at", message: expect.stringMatching(/^impossible date/) })]);
    expect(snapshot.observations[0]).toMatchObject({ path: "data[0]", unstated: ["startedAt"], partialUpdates: true, incident: { title: "n", updates: [] } });
  });

  it("states no status, kind or what they decide for a status that is not a number, and keeps the rest", async () => {
    const snapshot = await read(cachetV2Platform, { data: [{ ...opened, status: "fixed" }] });
    expect(snapshot.warnings.map((w) => w.path)).toEqual(["data[0].status"]);
    const [observation] = snapshot.observations;
    expect(observation?.unstated).toEqual(expect.arrayContaining(["status", "kind", "impact", "resolvedAt", "scheduledFor"]));
    expect(observation?.unstated).not.toContain("startedAt");
    expect(observation?.incident.updates.map((u) => u.body)).toEqual(["m"]);
  });

  it("reads an incident without an id as unreadable and the others as usual", async () => {
    const snapshot = await read(cachetV2Platform, { data: [{ ...opened, id: null }, opened] });
    expect(snapshot.unread).toEqual([{ id: null, path: "data[0]" }]);
    expect(snapshot.warnings.map((w) => w.path)).toEqual(["data[0].id"]);
    expect(snapshot.observations.map((o) => [o.path, o.incident.id])).toEqual([["data[1]", "1"]]);
  });

  it("skips an update whose time is unreadable, naming it, and states neither the end nor the link it may have given", async () => {
    const v2 = fixtureJson<V2Fixture>("v2-incidents-handwritten.json");
    const login = v2.data[2]?.updates?.[0];
    if (login) login.created_at = "soon";
    const snapshot = await read(cachetV2Platform, v2);
    expect(snapshot.warnings.map((w) => w.path)).toEqual(["data[2].updates[0].created_at"]);
    const observation = observationOf(snapshot, "1");
    expect(observation).toMatchObject({ partialUpdates: true, unstated: ["url", "resolvedAt"] });
    expect(observation.incident.updates.map((u) => u.id)).toEqual(["~20260301T100200Z", "11"]);
    expect(observationOf(snapshot, "3")).toMatchObject({ partialUpdates: false, unstated: [] });
  });

  it("states no updates when they are no list, and no components for a component id of the wrong type", async () => {
    const snapshot = await read(cachetV2Platform, { data: [{ ...opened, status: 4, updates: "none", component_id: { id: 3 } }] });
    expect(snapshot.warnings.map((w) => w.path)).toEqual(["data[0].component_id", "data[0].updates"]);
    expect(snapshot.observations[0]?.unstated).toEqual(expect.arrayContaining(["components", "updates", "resolvedAt"]));
  });

  it("states as inferred a link built from the API's address, not one the incident or its updates give", async () => {
    const snapshot = await read(cachetV2Platform, fixtureJson("v2-incidents-handwritten.json"));
    expect(observationOf(snapshot, "3").statements).toEqual({ url: "inferred" });
    expect(observationOf(snapshot, "1").statements).toBeUndefined();
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

  it("states no status, kind or resolution for a status without a value, naming the path", async () => {
    const incident = { id: "1", attributes: { name: "n", status: { human: "Fixed" } } };
    const snapshot = await read(cachetV3Platform, { data: [incident] });
    expect(snapshot.warnings.map((w) => w.path)).toEqual(["data[0].attributes.status.value"]);
    expect(snapshot.observations[0]?.unstated).toEqual(expect.arrayContaining(["status", "kind", "resolvedAt"]));
  });

  it("reads an incident without an id as unreadable and one without attributes by its id", async () => {
    const snapshot = await read(cachetV3Platform, { data: [{ attributes: { name: "n" } }, { id: "5" }, { id: "6", attributes: { name: "ok", status: { value: 1 } } }] });
    expect(snapshot.unread).toEqual([{ id: null, path: "data[0]" }, { id: "5", path: "data[1]" }]);
    expect(snapshot.warnings.map((w) => w.path)).toEqual(["data[0].id", "data[1].attributes"]);
    expect(snapshot.observations.map((o) => o.incident.id)).toEqual(["6"]);
  });

  it("skips an included update whose time is unreadable for its own incident only, naming the path", async () => {
    const v3 = fixtureJson<V3Fixture>("v3-incidents-handwritten.json");
    const included = JSON.parse(JSON.stringify(v3.included).replace('"2026-03-02 09:00:00"', '"later"')) as unknown;
    const snapshot = await read(cachetV3Platform, { ...v3, included });
    expect(snapshot.warnings.map((w) => w.path)).toEqual(["included[1].attributes.created.string"]);
    expect(observationOf(snapshot, "2")).toMatchObject({ partialUpdates: true, unstated: [] });
    expect(observationOf(snapshot, "2").incident.updates.map((u) => u.id)).toEqual(["~20260302T083210Z"]);
    expect(observationOf(snapshot, "1")).toMatchObject({ partialUpdates: false, unstated: [] });
  });

  it("reads included that is no list as possibly holding every incident's updates and components", async () => {
    const v3 = fixtureJson<V3Fixture>("v3-incidents-handwritten.json");
    const snapshot = await read(cachetV3Platform, { ...v3, included: "updates,components" });
    expect(snapshot.warnings.map((w) => w.path)).toEqual(["included"]);
    expect(snapshot.observations.map((o) => [o.incident.id, o.partialUpdates, o.unstated.includes("components")])).toEqual([
      ["2", true, true],
      ["1", true, false],
    ]);
  });

  it("counts an included entry without an id as possibly any incident's update or component", async () => {
    const v3 = fixtureJson<V3Fixture>("v3-incidents-handwritten.json");
    const included = [...(Array.isArray(v3.included) ? v3.included : []), { type: "updates", attributes: { message: "?" } }];
    const snapshot = await read(cachetV3Platform, { ...v3, included });
    expect(snapshot.warnings.map((w) => w.path)).toEqual(["included[3].id"]);
    expect(snapshot.observations.map((o) => o.partialUpdates)).toEqual([true, true]);
  });

  it("states no components of the incidents naming a component whose name is unreadable", async () => {
    const v3 = fixtureJson<V3Fixture>("v3-incidents-handwritten.json");
    const included = JSON.parse(JSON.stringify(v3.included).replace('"name":"Documentation"', '"name":7')) as unknown;
    const snapshot = await read(cachetV3Platform, { ...v3, included });
    expect(snapshot.warnings.map((w) => w.path)).toEqual(["included[0].attributes.name"]);
    expect(observationOf(snapshot, "2").unstated).toEqual(["components"]);
    expect(observationOf(snapshot, "1").unstated).toEqual([]);
  });

  it("states no components and infers no removal for an incident whose relationships are unreadable", async () => {
    const v3 = fixtureJson<V3Fixture>("v3-incidents-handwritten.json");
    const [docs] = v3.data;
    if (docs) docs.relationships = "components,updates";
    const snapshot = await read(cachetV3Platform, v3);
    expect(snapshot.warnings.map((w) => w.path)).toEqual(["data[0].relationships"]);
    expect(observationOf(snapshot, "2")).toMatchObject({ partialUpdates: true, unstated: ["components"] });
  });
});

describeCorpus("cachet samples", () => {
  it("parses the v2 incident list sample and refuses its updates list as an incident list", async () => {
    const [incident] = await parseFile(cachetV2Platform, corpusPath("samples", "cachet-v2-incidents", "andygrunwald-cachet-incidents_test-GetAll.json"));
    expect(incidentSchema.safeParse(incident).success).toBe(true);
    expect(incident).toMatchObject({ id: "1", status: "fixed", startedAt: "2015-08-01T12:00:00.000Z", components: [] });
    const updates = corpusPath("samples", "cachet-v2-incidents", "andygrunwald-cachet-incidents_test-GetAllUpdates.json");
    expect((await snapshotRejection(parseFile(cachetV2Platform, updates))).message).toContain("invalid at data: a list of incident updates, not of incidents");
  });

  it("parses the v3 documentation example", async () => {
    const incidents = await parseFile(cachetV3Platform, corpusPath("samples", "cachet-v3-incidents", "cachethq-docs-example.json"));
    for (const incident of incidents) expect(incidentSchema.safeParse(incident).success).toBe(true);
    expect(findIncident(incidents, "2")).toMatchObject({ status: "investigating", startedAt: "2024-10-27T08:31:59.000Z" });
    expect(findIncident(incidents, "1")).toMatchObject({ status: "fixed", title: "DNS Provider Outage" });
  });
});
