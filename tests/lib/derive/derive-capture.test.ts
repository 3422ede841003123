import { describe, expect, it } from "vitest";
import type { Observation, ParsedSnapshot } from "@/lib/derive/observation";
import { exactProfile, type SourceProfile } from "@/lib/derive/source-profile";
import type { Incident } from "@/lib/incident";
import { deriveHarness } from "@/tests/support/derive-harness";
import { makeIncident, makeUpdate } from "@/tests/support/incidents";

const SUMMARY = exactProfile({ kind: "active" });
const LIST = exactProfile({ kind: "recent", limit: 25 });
const SINGLE = exactProfile({ kind: "single" });
/** A history feed: no ids, minute times, rendered texts, inferred start, no impact or components. */
const FEED: SourceProfile = {
  presence: { kind: "recent", limit: 25 },
  createsIncidents: true,
  fields: { title: "exact", url: "exact", status: "exact", kind: "inferred", impact: "inferred", startedAt: "inferred", resolvedAt: "minute", postmortem: "rendered" },
  updates: { list: "full", time: "minute", text: "rendered", createdAt: false, keptStatus: "update" },
};

let minute = 0;
function at(): string {
  minute += 10;
  return new Date(Date.UTC(2026, 2, 1, 10, minute)).toISOString();
}

function snapshot(incidents: Incident[], overrides: Partial<Observation> = {}): ParsedSnapshot {
  return { observations: incidents.map((incident, i) => ({ incident, path: `incidents[${i}]`, unstated: [], partialUpdates: false, ...overrides })), unread: [], warnings: [] };
}

/** The incident as a history feed prints it: derived update ids, minute times, no impact or components. */
function asFeed(incident: Incident): Observation {
  const minuteOf = (t: string | null) => (t ? `${t.slice(0, 16)}:00.000Z` : null);
  return {
    incident: {
      ...incident,
      impact: null,
      components: [],
      startedAt: minuteOf(incident.updates[0]?.displayAt ?? null),
      updates: incident.updates.map((u) => ({ ...u, id: `~${minuteOf(u.displayAt)}-${u.status}`, createdAt: null, displayAt: minuteOf(u.displayAt) })),
    },
    path: "items[0]",
    unstated: incident.kind === "maintenance" ? [] : ["impact"],
    partialUpdates: false,
  };
}

describe("deriving one vendor's history from several sources", () => {
  it("lets a source without impact, ids or seconds add what it knows without inventing edits", () => {
    const h = deriveHarness();
    const json = makeIncident({ startedAt: "2026-03-01T10:01:13.653Z", updates: [makeUpdate({ displayAt: "2026-03-01T10:02:07.374Z", createdAt: "2026-03-01T10:02:07.374Z" })] });
    const older = makeIncident({ id: "older", startedAt: "2026-02-01T00:00:00.000Z", updates: [makeUpdate({ displayAt: "2026-02-01T00:02:00.000Z" })] });
    h.capture("history.atom", FEED, at(), { observations: [asFeed(older)], unread: [], warnings: [] });
    h.capture("summary.json", SUMMARY, at(), snapshot([json]));
    const resolved = makeIncident({
      ...json,
      status: "resolved",
      resolvedAt: "2026-03-01T11:00:00.000Z",
      updates: [...json.updates, makeUpdate({ id: "u2", status: "resolved", body: "Fixed.", displayAt: "2026-03-01T11:00:00.000Z", createdAt: "2026-03-01T11:00:00.000Z" })],
    });
    h.capture("history.atom", FEED, at(), { observations: [asFeed(resolved)], unread: [], warnings: [] });
    const [, , second] = h.versions;
    expect(second?.kinds).toEqual(["incident-resolved", "status-changed", "update-posted"]);
    expect(second?.changes.map((c) => c.field)).toEqual(["status", "resolvedAt", "update"]);
    const record = h.records.get("inc1");
    expect(record?.incident.impact).toBe("minor");
    expect(record?.incident.startedAt).toBe("2026-03-01T10:01:13.653Z");
    expect(record?.incident.updates.map((u) => u.id)).toEqual(["u1", "~2026-03-01T11:00:00.000Z-resolved"]);
  });

  it("matches the same update from the JSON API and from the feed, and takes the feed's later edit of it", () => {
    const h = deriveHarness();
    const json = makeIncident({ updates: [makeUpdate({ body: "This incident has been resolved.", status: "resolved", displayAt: "2026-03-01T10:02:07.374Z" })] });
    h.capture("summary.json", SUMMARY, at(), snapshot([json]));
    h.capture("history.atom", FEED, at(), { observations: [asFeed(json)], unread: [], warnings: [] });
    expect(h.versions).toHaveLength(1);
    const rewritten = { ...json, updates: [{ ...json.updates[0], body: "On March 1 a bad deploy broke the API for 58 minutes." } as Incident["updates"][number]] };
    h.capture("history.atom", FEED, at(), { observations: [asFeed(rewritten)], unread: [], warnings: [] });
    expect(h.versions.at(-1)?.kinds).toEqual(["update-edited"]);
    expect(h.records.get("inc1")?.incident.updates).toHaveLength(1);
  });

  it("never lets a webhook's shortlink replace the page URL the JSON API gave", () => {
    const h = deriveHarness();
    h.capture("incidents.json", LIST, at(), snapshot([makeIncident()]));
    h.capture("webhook", SINGLE, at(), snapshot([makeIncident({ url: "https://stspg.io/abc" })], { statements: { url: "inferred" } }));
    h.capture("incidents.json", LIST, at(), snapshot([makeIncident()]));
    expect(h.versions).toHaveLength(1);
    expect(h.records.get("inc1")?.incident.url).toBe("https://status.acme.test/incidents/inc1");
  });

  it("keeps an incident listed while a source that should list it has not looked yet, and lets it leave when none does", () => {
    const h = deriveHarness();
    const other = makeIncident({ id: "other", startedAt: "2026-02-01T00:00:00.000Z", updates: [makeUpdate({ displayAt: "2026-02-01T00:02:00.000Z" })] });
    h.capture("history.atom", FEED, at(), { observations: [asFeed(other)], unread: [], warnings: [] });
    h.capture("summary.json", SUMMARY, at(), snapshot([makeIncident()]));
    h.capture("summary.json", SUMMARY, at(), snapshot([]));
    expect(h.kindsOf("inc1")).toEqual([["incident-new"]]);
    h.capture("history.atom", FEED, at(), { observations: [asFeed(makeIncident()), asFeed(other)], unread: [], warnings: [] });
    h.capture("history.atom", FEED, at(), { observations: [asFeed(other)], unread: [], warnings: [] });
    expect(h.kindsOf("inc1").at(-1)).toEqual(["incident-left-feed"]);
  });
});

describe("identity of updates without vendor ids", () => {
  const feed = (updates: Incident["updates"]): ParsedSnapshot => ({ observations: [{ incident: makeIncident({ updates }), path: "items[0]", unstated: [], partialUpdates: false }], unread: [], warnings: [] });
  const a = makeUpdate({ id: "~20260301T1002Z", body: "We are looking into it.", displayAt: "2026-03-01T10:02:00.000Z" });
  const b = makeUpdate({ id: "~20260301T1002Z-2", body: "Errors are rising in the EU region too.", displayAt: "2026-03-01T10:02:00.000Z" });
  const noIds: SourceProfile = { ...FEED, updates: { list: "full", time: "minute", text: "exact", createdAt: false } };

  it("reports what a newly added source first says of an archived incident as its account of the past, with its times, not as edits", () => {
    const h = deriveHarness();
    const json = makeIncident({ startedAt: "2026-03-01T10:01:13.653Z", updates: [makeUpdate({ displayAt: "2026-03-01T10:02:07.374Z", createdAt: "2026-03-01T10:02:07.374Z" })] });
    h.capture("summary.json", SUMMARY, at(), snapshot([json]));
    h.capture("summary.json", SUMMARY, at(), snapshot([]));
    const later = makeIncident({
      ...json,
      status: "resolved",
      title: "Elevated API errors in one region",
      resolvedAt: "2026-03-01T11:00:00.000Z",
      postmortem: { body: "A bad deploy.", publishedAt: "2026-03-03T09:00:00.000Z" },
      updates: [...json.updates, makeUpdate({ id: "u2", status: "resolved", body: "Fixed.", displayAt: "2026-03-01T11:00:00.000Z", createdAt: "2026-03-01T11:00:00.000Z" })],
    });
    const fresh = makeIncident({ id: "fresh", title: "Slow builds", startedAt: "2026-03-01T12:00:00.000Z", updates: [makeUpdate({ displayAt: "2026-03-01T12:01:00.000Z" })] });
    h.capture("history.atom", FEED, at(), { observations: [asFeed(later), asFeed(fresh)], unread: [], warnings: [] });
    expect(h.kindsOf("inc1")).toEqual([["incident-new"], ["incident-left-feed"], ["new-source-report"]]);
    expect(h.versions.at(-2)?.changes.map((c) => c.field)).toEqual(["title", "status", "resolvedAt", "update", "postmortem"]);
    // One no other source listed is still an ordinary new incident.
    expect(h.kindsOf("fresh")).toEqual([["incident-new"]]);
    const record = h.records.get("inc1");
    expect(record).toMatchObject({ presence: "listed", editsAfterResolution: 0, postmortemAt: "2026-03-03T09:00:00.000Z" });
    expect(record?.incident.resolvedAt).toBe("2026-03-01T11:00:00.000Z");

    const edited = { ...later, updates: later.updates.map((u) => (u.id === "u2" ? { ...u, body: "Fixed by rolling back the deploy." } : u)) };
    h.capture("history.atom", FEED, at(), { observations: [asFeed(edited), asFeed(fresh)], unread: [], warnings: [] });
    expect(h.kindsOf("inc1").at(-1)).toEqual(["update-edited"]);
    expect(h.records.get("inc1")?.editsAfterResolution).toBe(1);
  });

  it("takes a follow-up page's first look for news: a postmortem found there is published, not a new source's account", () => {
    const h = deriveHarness();
    const resolved = makeIncident({ status: "resolved", resolvedAt: "2026-03-01T11:00:00.000Z" });
    h.capture("incidents.json", LIST, at(), snapshot([resolved]));
    const observedAt = at();
    h.capture("incident-page", { ...SINGLE, createsIncidents: false }, observedAt, snapshot([{ ...resolved, postmortem: { body: "A bad deploy.", publishedAt: null } }]));
    expect(h.kindsOf("inc1")).toEqual([["incident-new"], ["postmortem-published"]]);
    expect(h.records.get("inc1")?.postmortemAt).toBe(observedAt);
  });

  it("reports deleting the first of two updates of the same minute as the removal of that one", () => {
    const h = deriveHarness();
    h.capture("feed", noIds, at(), feed([a, b]));
    // The feed derives ids in order, so the one left now carries the first one's id.
    h.capture("feed", noIds, at(), feed([{ ...b, id: a.id }]));
    const last = h.versions.at(-1);
    expect(last?.kinds).toEqual(["update-removed"]);
    expect(last?.changes).toEqual([expect.objectContaining({ field: "update", kind: "removed", before: expect.objectContaining({ body: a.body }) })]);
  });

  it("still reports an update rewritten in place as an edit", () => {
    const h = deriveHarness();
    h.capture("feed", noIds, at(), feed([a, b]));
    h.capture("feed", noIds, at(), feed([a, { ...b, body: "Resolved: a bad deploy, rolled back." }]));
    expect(h.versions.at(-1)?.kinds).toEqual(["update-edited"]);
  });
});

describe("what could not be read", () => {
  it("never judges an incident gone when the snapshot listed it but could not read it", () => {
    const h = deriveHarness();
    h.capture("summary.json", SUMMARY, at(), snapshot([makeIncident(), makeIncident({ id: "b" })]));
    h.capture("summary.json", SUMMARY, at(), { ...snapshot([makeIncident({ id: "b" })]), unread: [{ id: "inc1", path: "incidents[0]" }] });
    expect(h.kindsOf("inc1")).toEqual([["incident-new"]]);
  });

  it("judges nothing gone at all when an element without a readable id was in the snapshot", () => {
    const h = deriveHarness();
    h.capture("summary.json", SUMMARY, at(), snapshot([makeIncident(), makeIncident({ id: "b" })]));
    h.capture("summary.json", SUMMARY, at(), { ...snapshot([]), unread: [{ id: null, path: "incidents[0]" }] });
    expect(h.versions).toHaveLength(2);
  });

  it("changes nothing a snapshot could not read, and removes no update when some could not be read", () => {
    const h = deriveHarness();
    const two = makeIncident({ updates: [makeUpdate(), makeUpdate({ id: "u2", body: "Identified.", displayAt: "2026-03-01T10:20:00.000Z" })] });
    h.capture("summary.json", SUMMARY, at(), snapshot([two]));
    h.capture("summary.json", SUMMARY, at(), snapshot([{ ...two, impact: null, updates: [makeUpdate()] }], { unstated: ["impact"], partialUpdates: true }));
    expect(h.versions).toHaveLength(1);
    h.capture("summary.json", SUMMARY, at(), snapshot([{ ...two, title: "Renamed", impact: null }], { unstated: ["impact"] }));
    expect(h.versions.at(-1)?.kinds).toEqual(["title-changed"]);
  });
});

describe("classification across versions", () => {
  it("calls a resolved incident reopened, not edited after resolution", () => {
    const h = deriveHarness();
    h.capture("summary.json", SUMMARY, at(), snapshot([makeIncident({ status: "resolved", resolvedAt: "2026-03-01T11:00:00.000Z" })]));
    h.capture("summary.json", SUMMARY, at(), snapshot([makeIncident({ status: "investigating", resolvedAt: null })]));
    expect(h.versions.at(-1)?.kinds).toEqual(["incident-reopened", "status-changed"]);
    expect(h.records.get("inc1")?.editsAfterResolution).toBe(0);
  });

  it("does not call a time re-saved a fraction of a second earlier a change", () => {
    const h = deriveHarness();
    h.capture("summary.json", SUMMARY, at(), snapshot([makeIncident({ startedAt: "2026-03-01T10:00:00.874Z" })]));
    h.capture("summary.json", SUMMARY, at(), snapshot([makeIncident({ startedAt: "2026-03-01T10:00:00.000Z" })]));
    expect(h.versions).toHaveLength(1);
  });
});
