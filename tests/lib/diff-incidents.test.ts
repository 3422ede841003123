import { describe, expect, it } from "vitest";
import { canonicalizeIncident } from "@/lib/canonicalize";
import { classifyChanges } from "@/lib/derive/classify-changes";
import { diffStates, pairUpdates, sameInstant } from "@/lib/diff-incidents";
import type { Incident, IncidentState } from "@/lib/incident";
import { makeIncident, makeUpdate } from "@/tests/support/incidents";

function listed(incident: Incident): IncidentState {
  return { incident: canonicalizeIncident(incident), presence: "listed" };
}

function kindsBetween(before: Incident, after: Incident): string[] {
  const changes = diffStates(listed(before), listed(after));
  return classifyChanges(changes, { isFirst: false });
}

describe("diffStates", () => {
  it("reports every present field of a first version as added, and no presence change", () => {
    const changes = diffStates(null, listed(makeIncident()));
    const fields = changes.map((c) => c.field);
    expect(fields).toEqual(["title", "status", "impact", "url", "startedAt", "components", "update"]);
    expect(changes.every((c) => c.kind === "added" && c.before === null)).toBe(true);
    expect(classifyChanges(changes, { isFirst: true })).toEqual(["incident-new"]);
  });

  it("finds nothing between an incident and itself with its components reordered", () => {
    const a = makeIncident({ components: [{ id: "a", name: "A" }, { id: "b", name: "B" }] });
    const b = makeIncident({ components: [{ id: "b", name: "B" }, { id: "a", name: "A" }] });
    expect(diffStates(listed(a), listed(b))).toEqual([]);
  });

  it("names exactly the title when only the title changed", () => {
    const changes = diffStates(listed(makeIncident()), listed(makeIncident({ title: "Elevated API errors in EU" })));
    expect(changes).toEqual([
      { field: "title", kind: "changed", before: "Elevated API errors", after: "Elevated API errors in EU" },
    ]);
  });

  it("treats a time moved by less than a second (re-saved at lower precision) as the same instant", () => {
    expect(sameInstant("2025-06-10T21:57:14.421Z", "2025-06-10T21:57:14.000Z")).toBe(true);
    expect(sameInstant("2025-06-10T21:57:14.421Z", "2025-06-10T21:57:15.000Z")).toBe(true);
    expect(sameInstant("2025-06-10T21:57:14.421Z", "2025-06-10T21:57:15.421Z")).toBe(false);
    expect(sameInstant("2025-06-10T21:57:14.000Z", "2025-06-10T21:58:14.000Z")).toBe(false);
    const before = makeIncident({ updates: [makeUpdate({ displayAt: "2026-03-01T10:02:00.421Z" })] });
    const after = makeIncident({ updates: [makeUpdate({ displayAt: "2026-03-01T10:02:00.000Z" })] });
    expect(diffStates(listed(before), listed(after))).toEqual([]);
  });

  it("carries the update id and the whole update on both sides when a posted update is rewritten", () => {
    const after = makeIncident({ updates: [makeUpdate({ body: "We are investigating elevated error rates on the EU API." })] });
    const changes = diffStates(listed(makeIncident()), listed(after));
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ field: "update", kind: "changed", updateId: "u1" });
    expect(kindsBetween(makeIncident(), after)).toEqual(["update-edited"]);
  });

  it("calls a moved display time a backdated update", () => {
    const after = makeIncident({ updates: [makeUpdate({ displayAt: "2026-03-01T08:00:00.000Z" })] });
    expect(kindsBetween(makeIncident(), after)).toEqual(["update-backdated"]);
  });

  it("pairs an id-less update whose time moved instead of reporting one removed and one posted", () => {
    const old = makeUpdate({ id: "~20260301T100200Z", body: "Engineers are looking into failing logins." });
    const moved = makeUpdate({ id: "~20260301T093000Z", body: "Engineers are looking into failing logins.", displayAt: "2026-03-01T09:30:00.000Z" });
    const { pairs, added, removed } = pairUpdates([old], [moved]);
    expect(pairs).toHaveLength(1);
    expect(added).toEqual([]);
    expect(removed).toEqual([]);
    expect(kindsBetween(makeIncident({ updates: [old] }), makeIncident({ updates: [moved] }))).toEqual(["update-backdated"]);
  });

  it("keeps unrelated id-less updates apart: one removed, one posted", () => {
    const old = makeUpdate({ id: "~20260301T100200Z", body: "Engineers are looking into failing logins." });
    const other = makeUpdate({ id: "~20260301T113000Z", body: "Payments are delayed in Europe.", displayAt: "2026-03-01T11:30:00.000Z" });
    expect(kindsBetween(makeIncident({ updates: [old] }), makeIncident({ updates: [other] }))).toEqual(["update-removed", "update-posted"]);
  });

  it("never pairs updates that carry vendor ids", () => {
    const a = makeUpdate({ id: "abc" });
    const b = makeUpdate({ id: "def" });
    expect(pairUpdates([a], [b]).pairs).toEqual([]);
  });
});

describe("classifyChanges", () => {
  it("counts a report posted as an update and read as the postmortem too (Google Cloud) once, as the postmortem", () => {
    const report = "Incident report: a configuration change caused elevated errors.";
    const resolved = makeIncident({ status: "resolved", resolvedAt: "2026-03-01T11:00:00.000Z" });
    const withReport = (text: string) => ({
      ...resolved,
      updates: [...resolved.updates, makeUpdate({ id: "~20260303T1000Z", body: text, status: "resolved", createdAt: "2026-03-03T10:00:00.000Z", displayAt: "2026-03-03T10:00:00.000Z" })],
      postmortem: { body: text, publishedAt: "2026-03-03T10:00:00.000Z" },
    });
    expect(kindsBetween(resolved, withReport(report))).toEqual(["postmortem-published"]);
    expect(kindsBetween(withReport(report), withReport(report.replace("elevated", "high")))).toEqual(["postmortem-edited"]);
  });

  it("calls text added after or before a posted update an extension, and any other change of its text an edit", () => {
    const body = "We are investigating elevated error rates on the API.";
    const withBody = (text: string, status = "investigating") => makeIncident({ updates: [makeUpdate({ body: text, status })] });
    expect(kindsBetween(withBody(body), withBody(`${body}\n\nWe'd like to share more information.`))).toEqual(["update-extended"]);
    expect(kindsBetween(withBody(body), withBody(`Update: fixed. ${body}`))).toEqual(["update-extended"]);
    expect(kindsBetween(withBody(body), withBody(body.replace("the API", "the API and webhooks")))).toEqual(["update-edited"]);
    expect(kindsBetween(withBody(body), withBody(body.replace("elevated ", "")))).toEqual(["update-edited"]);
    // A status relabelled with it is an edit, whatever the text did.
    expect(kindsBetween(withBody(body), withBody(`${body} More soon.`, "identified"))).toEqual(["update-edited"]);
  });

  it("tells an impact downgrade from an escalation", () => {
    expect(kindsBetween(makeIncident({ impact: "major" }), makeIncident({ impact: "minor" }))).toEqual(["impact-downgraded"]);
    expect(kindsBetween(makeIncident({ impact: "minor" }), makeIncident({ impact: "critical" }))).toEqual(["impact-escalated"]);
    expect(kindsBetween(makeIncident({ impact: "none" }), makeIncident({ impact: "minor" }))).toEqual(["impact-escalated"]);
  });

  it("never calls a change to or from maintenance or an unstated impact a downgrade or an escalation", () => {
    expect(kindsBetween(makeIncident({ impact: "minor" }), makeIncident({ impact: "maintenance" }))).toEqual(["impact-changed"]);
    expect(kindsBetween(makeIncident({ impact: "maintenance" }), makeIncident({ impact: "critical" }))).toEqual(["impact-changed"]);
    expect(kindsBetween(makeIncident({ impact: "major" }), makeIncident({ impact: null }))).toEqual(["impact-changed"]);
    expect(kindsBetween(makeIncident({ impact: null }), makeIncident({ impact: "minor" }))).toEqual(["impact-changed"]);
  });

  it("calls an incident relabelled as a maintenance a change of its own", () => {
    expect(kindsBetween(makeIncident(), makeIncident({ kind: "maintenance" }))).toEqual(["relabelled"]);
  });

  it("calls a resolved incident open again a reopening, without a timing change for the end it loses", () => {
    const resolved = makeIncident({ status: "resolved", resolvedAt: "2026-03-01T11:00:00.000Z" });
    const kinds = kindsBetween(resolved, makeIncident({ status: "investigating", resolvedAt: null }));
    expect(kinds).toEqual(["incident-reopened", "status-changed"]);
  });

  it("marks a resolution without calling its new end time a timing change", () => {
    const kinds = kindsBetween(makeIncident(), makeIncident({ status: "resolved", resolvedAt: "2026-03-01T11:00:00.000Z" }));
    expect(kinds).toEqual(["incident-resolved", "status-changed"]);
  });

  it("calls a moved start or end after the fact a timing change", () => {
    const resolved = makeIncident({ status: "resolved", resolvedAt: "2026-03-01T11:00:00.000Z" });
    expect(kindsBetween(resolved, { ...resolved, resolvedAt: "2026-03-01T10:40:00.000Z" })).toEqual(["timing-changed"]);
    expect(kindsBetween(resolved, { ...resolved, startedAt: "2026-02-26T10:00:00.000Z" })).toEqual(["timing-changed"]);
  });

  it("calls a moved maintenance window a reschedule", () => {
    const m = makeIncident({ kind: "maintenance", impact: "maintenance", scheduledFor: "2026-03-05T02:00:00.000Z", scheduledUntil: "2026-03-05T04:00:00.000Z" });
    expect(kindsBetween(m, { ...m, scheduledFor: "2026-03-06T02:00:00.000Z", scheduledUntil: "2026-03-06T04:00:00.000Z" })).toEqual(["rescheduled"]);
  });

  it("tells a published postmortem from an edited one", () => {
    const resolved = makeIncident({ status: "resolved", resolvedAt: "2026-03-01T11:00:00.000Z" });
    const published = { ...resolved, postmortem: { body: "Root cause: a bad deploy.", publishedAt: "2026-03-14T09:00:00.000Z" } };
    expect(kindsBetween(resolved, published)).toEqual(["postmortem-published"]);
    const edited = { ...published, postmortem: { body: "Root cause: a bad config push.", publishedAt: "2026-03-14T09:00:00.000Z" } };
    expect(kindsBetween(published, edited)).toEqual(["postmortem-edited"]);
  });

  it("reports components added or removed, and a new update posted", () => {
    const after = makeIncident({
      components: [{ id: "api", name: "API" }, { id: "web", name: "Web" }],
      updates: [makeUpdate(), makeUpdate({ id: "u2", status: "identified", body: "Cause found.", displayAt: "2026-03-01T10:30:00.000Z" })],
    });
    expect(kindsBetween(makeIncident(), after)).toEqual(["components-changed", "update-posted"]);
  });

  it("classifies presence changes: left the feed, deleted, reappeared", () => {
    const incident = canonicalizeIncident(makeIncident());
    const at = (presence: IncidentState["presence"]): IncidentState => ({ incident, presence });
    expect(classifyChanges(diffStates(at("listed"), at("left-feed")), { isFirst: false })).toEqual(["incident-left-feed"]);
    expect(classifyChanges(diffStates(at("listed"), at("deleted")), { isFirst: false })).toEqual(["incident-deleted"]);
    expect(classifyChanges(diffStates(at("left-feed"), at("listed")), { isFirst: false })).toEqual(["incident-reappeared"]);
  });
});
