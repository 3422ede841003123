import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { canonicalizeIncident, hashIncident } from "@/lib/canonicalize";
import { mergeObservation } from "@/lib/derive/merge-observation";
import type { ParsedSnapshot } from "@/lib/derive/observation";
import { incidentSchema, type Incident } from "@/lib/incident";
import type { Platform } from "@/scrapers/platforms/platform";
import { slackHistoryPlatform, slackPlatform } from "@/scrapers/platforms/slack";
import { corpusPath, corpusSnapshots, describeCorpus } from "@/tests/support/corpus";
import { findIncident, parseCorpusFile, snapshotRejection, parseIncidents } from "@/tests/support/parsing";

const FIXTURES = path.join(__dirname, "..", "..", "fixtures", "slack");
const context = { vendor: "slack", source: "fixture.json", observedAt: "2021-12-01T00:00:00.000Z" };

function parseText(platform: Platform, text: string): Promise<Incident[]> {
  return parseIncidents(platform, new TextEncoder().encode(text), context);
}

function parseFixture(platform: Platform, name: string): Promise<Incident[]> {
  return parseIncidents(platform, fs.readFileSync(path.join(FIXTURES, name)), context);
}

function parseSnapshot(file: string): Promise<Incident[]> {
  return parseCorpusFile(slackPlatform, file, "slack");
}

function readText(platform: Platform, text: string): Promise<ParsedSnapshot> {
  return platform.parse(new TextEncoder().encode(text), context);
}

function readFixture(platform: Platform, name: string): Promise<ParsedSnapshot> {
  return platform.parse(fs.readFileSync(path.join(FIXTURES, name)), context);
}

function incident(overrides: Record<string, unknown>): Record<string, unknown> {
  return { id: 1, title: "t", type: "incident", status: "active", date_created: "2021-01-01T00:00:00-08:00", ...overrides };
}

describe("slack platform: current", () => {
  it("maps an active outage with its services, UTC start and no resolution", async () => {
    const outage = findIncident(await parseFixture(slackPlatform, "current-handwritten.json"), "5001");
    expect(outage).toMatchObject({
      vendor: "slack",
      kind: "incident",
      title: "Hand-written: trouble sending messages",
      status: "active",
      impact: "major",
      url: "https://status.slack.com/2021-03/handwritten5001",
      startedAt: "2021-03-14T09:10:00.000Z",
      resolvedAt: null,
      components: [
        { id: "Messaging", name: "Messaging" },
        { id: "Calls", name: "Calls" },
      ],
    });
  });

  it("lists notes oldest first with ids from their UTC creation time and no status", async () => {
    const outage = findIncident(await parseFixture(slackPlatform, "current-handwritten.json"), "5001");
    expect(outage.updates.map((u) => [u.id, u.status, u.createdAt, u.displayAt])).toEqual([
      ["~20210314T091000Z", null, "2021-03-14T09:10:00.000Z", "2021-03-14T09:10:00.000Z"],
      ["~20210314T110500Z", null, "2021-03-14T11:05:00.000Z", "2021-03-14T11:05:00.000Z"],
    ]);
  });

  it("keeps a plain-text note as given, comparison signs included", async () => {
    const outage = findIncident(await parseFixture(slackPlatform, "current-handwritten.json"), "5001");
    expect(outage.updates[0]?.body).toBe("Some users can't send messages.\r\n\r\nWe're on it, and 3 < 4 > 2 still holds.");
  });

  it("turns an HTML note into text without scripts, handlers or javascript links", async () => {
    const outage = findIncident(await parseFixture(slackPlatform, "current-handwritten.json"), "5001");
    const body = outage.updates[1]?.body ?? "";
    expect(body).toBe("Most messages send again.\n\nSee this page or [help](https://slack.com/help).");
    expect(body).not.toMatch(/alert|<|javascript:/);
  });

  it("maps a completed maintenance and resolves it at its newest note", async () => {
    const maintenance = findIncident(await parseFixture(slackPlatform, "current-handwritten.json"), "5002");
    expect(maintenance).toMatchObject({
      kind: "maintenance",
      impact: "maintenance",
      status: "completed",
      resolvedAt: "2021-03-20T18:00:00.000Z",
      components: [],
    });
  });

  it("keeps the first listing of an id that appears twice", async () => {
    const incidents = await parseFixture(slackPlatform, "current-handwritten.json");
    expect(incidents.map((i) => i.id)).toEqual(["5001", "5002"]);
    expect(findIncident(incidents, "5001").impact).toBe("major");
  });
});

describe("slack platform: history", () => {
  it("resolves a notice at its newest note across a DST change", async () => {
    const notice = findIncident(await parseFixture(slackHistoryPlatform, "history-handwritten.json"), "6001");
    expect(notice).toMatchObject({ kind: "incident", impact: "none", status: "resolved", startedAt: "2021-11-07T06:30:00.000Z" });
    expect(notice.resolvedAt).toBe("2021-11-07T09:15:00.000Z");
  });

  it("gives an unknown type no impact and keeps a missing url null", async () => {
    const other = findIncident(await parseFixture(slackHistoryPlatform, "history-handwritten.json"), "6002");
    expect(other).toMatchObject({ kind: "incident", impact: null, url: null, updates: [] });
  });

  it("declares which feed lists only active incidents", () => {
    expect(slackPlatform.profile.presence).toEqual({ kind: "active" });
    expect(slackHistoryPlatform.profile.presence).toEqual({ kind: "recent", limit: null });
  });
});

describe("slack platform: broken snapshots", () => {
  it("reports empty and whitespace bodies as failed fetches", async () => {
    expect((await snapshotRejection(parseText(slackPlatform, ""))).kind).toBe("empty");
    expect((await snapshotRejection(parseText(slackHistoryPlatform, " \n"))).kind).toBe("empty");
  });

  it("reports a body that is not JSON as unparseable", async () => {
    expect((await snapshotRejection(parseText(slackPlatform, "upstream timeout"))).kind).toBe("unparseable");
  });

  it("rejects a history that is not an array, naming vendor and source", async () => {
    const error = await snapshotRejection(parseText(slackHistoryPlatform, '{"active_incidents": []}'));
    expect(error.kind).toBe("schema");
    expect(error.message).toContain("slack: snapshot from fixture.json is invalid at (root)");
  });

  it("rejects a current snapshot whose active incidents are not a list", async () => {
    const error = await snapshotRejection(parseText(slackPlatform, '{"active_incidents": {}}'));
    expect(error.message).toContain("invalid at active_incidents");
  });
});

describe("slack platform: a malformed element costs only itself", () => {
  it("says where each incident is in the payload", async () => {
    const current = await readFixture(slackPlatform, "current-handwritten.json");
    expect(current.observations.map((o) => [o.incident.id, o.path])).toEqual([["5001", "active_incidents[0]"], ["5002", "active_incidents[1]"]]);
    const history = await readFixture(slackHistoryPlatform, "history-handwritten.json");
    expect(history.observations.map((o) => o.path)).toEqual(["[0]", "[1]"]);
  });

  it("reads an incident without an id as unread and reads the others", async () => {
    const { id: _id, ...withoutId } = incident({});
    const snapshot = await readText(slackPlatform, JSON.stringify({ active_incidents: [withoutId, incident({ id: 2 })] }));
    expect(snapshot.unread).toEqual([{ id: null, path: "active_incidents[0]" }]);
    expect(snapshot.warnings.map((w) => w.path)).toEqual(["active_incidents[0].id"]);
    expect(snapshot.observations.map((o) => o.incident.id)).toEqual(["2"]);
  });

  it("leaves out a blank service name, which cannot identify a component, and keeps the incident", async () => {
    const [parsed] = await parseText(slackHistoryPlatform, JSON.stringify([incident({ services: ["Calls", ""] })]));
    expect(parsed?.components).toEqual([{ id: "Calls", name: "Calls" }]);
  });

  it("leaves the components unstated when a service is not a name", async () => {
    const snapshot = await readText(slackHistoryPlatform, JSON.stringify([incident({ services: ["Calls", 7] })]));
    expect(snapshot.warnings.map((w) => w.path)).toEqual(["[0].services[1]"]);
    expect(snapshot.observations[0]).toMatchObject({ incident: { components: [{ id: "Calls", name: "Calls" }] }, unstated: ["components"] });
  });

  it("skips a note whose time has no offset, and leaves the end of a resolved incident unstated", async () => {
    const notes = [{ date_created: "2021-01-01T00:00:00-08:00", body: "a" }, { date_created: "2021-01-01 10:00", body: "b" }];
    const snapshot = await readText(slackPlatform, JSON.stringify({ active_incidents: [incident({ status: "resolved", notes })] }));
    expect(snapshot.warnings).toEqual([{ path: "active_incidents[0].notes[1].date_created", message: expect.stringMatching(/timestamp has no UTC offset/) }]);
    expect(snapshot.observations[0]).toMatchObject({ partialUpdates: true, unstated: ["resolvedAt"] });
    expect(snapshot.observations[0]?.incident.updates.map((u) => u.body)).toEqual(["a"]);
  });

  it("keeps the end of an active incident stated when a note is skipped: it has none", async () => {
    const notes = [{ date_created: "2021-01-01T00:00:00-08:00", body: "a" }, { body: "b" }];
    const snapshot = await readText(slackPlatform, JSON.stringify({ active_incidents: [incident({ notes })] }));
    expect(snapshot.observations[0]).toMatchObject({ incident: { resolvedAt: null }, partialUpdates: true, unstated: [] });
  });

  it("leaves the updates and a resolved incident's end unstated when the notes are not a list", async () => {
    const snapshot = await readText(slackHistoryPlatform, JSON.stringify([incident({ status: "resolved", notes: "none" })]));
    expect(snapshot.warnings.map((w) => w.path)).toEqual(["[0].notes"]);
    expect(snapshot.observations[0]).toMatchObject({ unstated: ["updates", "resolvedAt"], partialUpdates: false });
  });

  it("leaves a field of the wrong type unstated, and the end with an unreadable status", async () => {
    const snapshot = await readText(slackHistoryPlatform, JSON.stringify([incident({ title: 5, status: null, url: 1, date_created: "yesterday" })]));
    expect(snapshot.warnings.map((w) => w.path)).toEqual(["[0].title", "[0].status", "[0].url", "[0].date_created"]);
    expect(snapshot.observations[0]).toMatchObject({
      incident: { title: "", status: null, url: null, startedAt: null, resolvedAt: null },
      unstated: ["title", "status", "resolvedAt", "url", "startedAt"],
    });
  });

  it("leaves the kind and impact of a type it does not know unstated, with a warning", async () => {
    const snapshot = await readFixture(slackHistoryPlatform, "history-handwritten.json");
    expect(snapshot.warnings).toEqual([{ path: "[1].type", message: 'unknown incident type "degradation"' }]);
    expect(snapshot.observations.map((o) => o.unstated)).toEqual([[], ["kind", "impact"]]);
  });

  it("ignores a second listing of an id even when the first is the one partly unreadable", async () => {
    const snapshot = await readText(slackHistoryPlatform, JSON.stringify([incident({ title: 1 }), incident({ id: "1", title: "second" })]));
    expect(snapshot.observations).toHaveLength(1);
    expect(snapshot.observations[0]).toMatchObject({ path: "[0]", unstated: ["title"] });
  });
});

describe("slack platform: the end inferred from the newest note", () => {
  const at = (observedAt: string, hash: string) => ({ source: "slack", profile: slackPlatform.profile, observedAt, hash });

  it("declares the end inferred for both feeds", () => {
    expect(slackPlatform.profile.fields.resolvedAt).toBe("inferred");
    expect(slackHistoryPlatform.profile.fields.resolvedAt).toBe("inferred");
  });

  it("records the end once the incident it saw open is resolved", async () => {
    const note = (time: string) => ({ date_created: time, body: time });
    const open = await readText(slackPlatform, JSON.stringify({ active_incidents: [incident({ notes: [note("2021-01-01T00:00:00-08:00")] })] }));
    const resolved = await readText(slackPlatform, JSON.stringify({
      active_incidents: [incident({ status: "resolved", notes: [note("2021-01-01T00:00:00-08:00"), note("2021-01-01T02:00:00-08:00")] })],
    }));
    const [first] = open.observations;
    const [second] = resolved.observations;
    if (!first || !second) throw new Error("incident not read");
    const created = mergeObservation(null, first, at("2021-01-01T09:00:00.000Z", "a")).record;
    const merged = mergeObservation(created, second, at("2021-01-01T11:00:00.000Z", "b")).record;
    expect(merged.incident).toMatchObject({ status: "resolved", resolvedAt: "2021-01-01T10:00:00.000Z" });
  });
});

describeCorpus("slack platform on real snapshots", () => {
  const folder = "slack-current-2020";
  const files = corpusSnapshots(folder);

  function pairAt(stamp: string): [string, string] {
    const index = files.findIndex((f) => path.basename(f).startsWith(stamp));
    const before = files.slice(0, index).findLast((f) => fs.statSync(f).size > 0);
    const current = files[index];
    if (!before || !current) throw new Error(`no snapshot pair at ${stamp}`);
    return [before, current];
  }

  function rawServices(file: string, id: number): string[] {
    const raw = JSON.parse(fs.readFileSync(file, "utf8")) as { active_incidents: Array<{ id: number; services: string[] }> };
    return raw.active_incidents.find((i) => i.id === id)?.services ?? [];
  }

  it("parses every current snapshot into valid incidents, and 0-byte files as failed fetches", async () => {
    let empty = 0;
    for (const file of files) {
      if (fs.statSync(file).size === 0) {
        expect((await snapshotRejection(parseSnapshot(file))).kind).toBe("empty");
        empty += 1;
        continue;
      }
      for (const incident of await parseSnapshot(file)) expect(incidentSchema.safeParse(incident).error).toBeUndefined();
    }
    expect(empty).toBe(3);
  });

  it("keeps the note id when its text was edited at 20201102T211707Z", async () => {
    const [before, after] = pairAt("20201102T211707Z");
    const old = findIncident(await parseSnapshot(before), "918").updates.find((u) => u.body.includes("All affected users should be able to search"));
    const now = findIncident(await parseSnapshot(after), "918").updates.find((u) => u.id === old?.id);
    expect(old?.id).toBe("~20201102T201602Z");
    expect(now?.body).toMatch(/^The majority of affected users should be able to search/);
  });

  it.each([
    ["20201016T130714Z", 915],
    ["20201117T182425Z", 920],
    ["20201123T133235Z", 922],
  ])("treats the services reordered at %s (incident %i) as the same set", async (stamp, id) => {
    const [before, after] = pairAt(stamp);
    expect(rawServices(after, id)).not.toEqual(rawServices(before, id));
    const old = canonicalizeIncident(findIncident(await parseSnapshot(before), String(id)));
    const now = canonicalizeIncident(findIncident(await parseSnapshot(after), String(id)));
    expect(now.components).toEqual(old.components);
    // The same snapshots also add or reword notes, which are real changes; everything else is identical.
    expect(hashIncident({ ...now, updates: [] })).toBe(hashIncident({ ...old, updates: [] }));
  });

  it("parses the captured history sample, resolving incidents at their newest note", async () => {
    const file = corpusPath("samples", "slack-history", "jtprogru-weekly-incident.json");
    const incidents = await parseIncidents(slackHistoryPlatform, fs.readFileSync(file), { ...context, source: path.basename(file) });
    expect(incidents).toHaveLength(5);
    for (const incident of incidents) {
      expect(incidentSchema.safeParse(incident).success).toBe(true);
      const newest = incident.updates.at(-1)?.createdAt ?? null;
      expect(incident.resolvedAt).toBe(incident.status === "resolved" ? newest : null);
      for (const update of incident.updates) expect(update.body).not.toMatch(/<\/?p>|&nbsp;/);
    }
    expect(findIncident(incidents, "1576").resolvedAt).toBeNull();
  });
});
