import { describe, expect, it } from "vitest";
import { canonicalizeIncident } from "@/lib/canonicalize";
import { classifyChanges } from "@/lib/derive/classify-changes";
import { diffStates } from "@/lib/diff-incidents";
import type { Incident, IncidentState } from "@/lib/incident";
import { orderChanges } from "@/lib/change-order";
import { presenceLabel, statusLabel } from "@/lib/labels";
import { describeIncident, headlineVersion, summarizeVersion } from "@/lib/summarize";
import { makeIncident, makeUpdate } from "@/tests/support/incidents";

function inputFor(before: Incident | null, after: Incident, observedAt: string) {
  const prev: IncidentState | null = before ? { incident: canonicalizeIncident(before), presence: "listed" } : null;
  const state: IncidentState = { incident: canonicalizeIncident(after), presence: "listed" };
  const changes = diffStates(prev, state);
  const kinds = classifyChanges(changes, { isFirst: prev === null });
  return { vendorName: "Buildkite", state, previous: prev, changes, kinds, observedAt };
}

function summarize(before: Incident | null, after: Incident, observedAt: string): string {
  return summarizeVersion(inputFor(before, after, observedAt));
}

const resolved = makeIncident({ impact: "major", status: "resolved", resolvedAt: "2026-03-01T10:42:00.000Z", components: [{ id: "hooks", name: "Webhooks" }, { id: "gql", name: "GraphQL" }] });

describe("summarizeVersion", () => {
  it("says who reported what impact on which components, when it started and ended and for how long", () => {
    expect(describeIncident("Buildkite", canonicalizeIncident(resolved))).toBe(
      "Buildkite reported a major incident affecting GraphQL and Webhooks, starting at 2026-03-01 10:00 UTC and resolved at 2026-03-01 10:42 UTC (42 min).",
    );
  });

  it("dates an impact downgrade relative to the resolution", () => {
    const text = summarize(resolved, { ...resolved, impact: "minor" }, "2026-03-03T10:42:00.000Z");
    expect(text).toContain("Impact lowered from Major to Minor 2 days after resolution.");
  });

  it("names a rewritten update and how long after posting it was rewritten", () => {
    const before = makeIncident();
    const after = makeIncident({ updates: [makeUpdate({ body: "Something else entirely." })] });
    expect(summarize(before, after, "2026-03-01T12:02:00.000Z")).toContain(
      "The update of 2026-03-01 10:02 UTC (Investigating) was rewritten, 2 hours after it was posted.",
    );
  });

  it("says a paragraph or a sentence was added to an update, not that it was rewritten", () => {
    const before = makeIncident();
    const body = before.updates[0]?.body ?? "";
    const paragraph = summarize(before, makeIncident({ updates: [makeUpdate({ body: `${body}\n\nWe'd like to share more.` })] }), "2026-03-02T16:02:00.000Z");
    expect(paragraph).toContain("A paragraph was added at the end of the update of 2026-03-01 10:02 UTC (Investigating), 30 hours after it was posted.");
    expect(paragraph).not.toContain("rewritten");
    const sentence = summarize(before, makeIncident({ updates: [makeUpdate({ body: `Fixed now. ${body}` })] }), "2026-03-01T12:02:00.000Z");
    expect(sentence).toContain("A sentence was added at the start of the update of 2026-03-01 10:02 UTC (Investigating), 2 hours after it was posted.");
  });

  it("says an update was rewritten before the time it shows, never after, when its time lies ahead of the observation", () => {
    const before = makeIncident();
    const after = makeIncident({ updates: [makeUpdate({ body: "Something else entirely." })] });
    const text = summarize(before, after, "2026-02-25T10:02:00.000Z");
    expect(text).toContain("The update of 2026-03-01 10:02 UTC (Investigating) was rewritten, 4 days before the time it shows.");
    expect(text).not.toContain("after it was posted");
  });

  it("says a postmortem dated before the resolution was published before it", () => {
    const text = summarize(resolved, { ...resolved, postmortem: { body: "Root cause.", publishedAt: "2026-03-01T08:42:00.000Z" } }, "2026-03-01T11:00:00.000Z");
    expect(text).toContain("Postmortem published 2 hours before resolution.");
  });

  it("says how long after resolution a postmortem appeared", () => {
    const text = summarize(resolved, { ...resolved, postmortem: { body: "Root cause.", publishedAt: "2026-03-14T10:42:00.000Z" } }, "2026-03-14T11:00:00.000Z");
    expect(text).toContain("Postmortem published 13 days after resolution.");
  });

  it("is the same text for the same input, every time", () => {
    const a = summarize(makeIncident(), makeIncident({ title: "Renamed" }), "2026-03-01T11:00:00.000Z");
    const b = summarize(makeIncident(), makeIncident({ title: "Renamed" }), "2026-03-01T11:00:00.000Z");
    expect(a).toBe(b);
    expect(a).toContain('Renamed from "Elevated API errors" to "Renamed".');
  });

  it("leads with the change and ends with the sentence every version shares", () => {
    const text = summarize(resolved, { ...resolved, impact: "minor" }, "2026-03-03T10:42:00.000Z");
    expect(text.startsWith("Impact lowered from Major to Minor")).toBe(true);
    expect(text.endsWith("resolved at 2026-03-01 10:42 UTC (42 min).")).toBe(true);
  });
});

describe("headlineVersion", () => {
  it("leads with the change behind the headline kind, then impact, status, renaming and updates, whatever order the diff lists them in", () => {
    const before = makeIncident({ impact: "minor" });
    const after = makeIncident({ impact: "critical", title: "Everything is down", status: "identified", updates: [makeUpdate({ body: "Rewritten." })] });
    const headline = headlineVersion(inputFor(before, after, "2026-03-01T11:00:00.000Z"));
    const order = ["was rewritten", "Impact raised from Minor to Critical", "Status changed from Investigating to Identified", 'Renamed from "Elevated API errors"'].map((p) => headline.indexOf(p));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(headline).not.toContain("Buildkite reported");
  });

  it("names a new incident by its impact, and a new update by its status and plain text", () => {
    expect(headlineVersion(inputFor(null, resolved, "2026-03-01T10:05:00.000Z"))).toBe("New major incident. First archived 5 minutes after it started.");
    const before = makeIncident();
    const after = makeIncident({ updates: [...before.updates, makeUpdate({ id: "u2", status: "monitoring", body: "**Summary**\nA fix is out." })] });
    expect(headlineVersion(inputFor(before, after, "2026-03-01T11:00:00.000Z"))).toBe('New update (Monitoring): "Summary A fix is out."');
  });
});

describe("one order and one vocabulary with the change page", () => {
  it("opens the summary, the headline and the change page with the same change on a version that changed several fields", () => {
    const before = makeIncident({ updates: [makeUpdate({ body: "We are investigating errors on the REST API." })] });
    const after = makeIncident({
      status: "monitoring",
      updates: [makeUpdate({ body: "We are investigating errors for a few customers." }), makeUpdate({ id: "u2", status: "monitoring", body: "A fix is deployed." })],
    });
    const input = inputFor(before, after, "2026-03-01T11:00:00.000Z");
    expect(input.kinds[0]).toBe("update-edited");
    const lead = orderChanges(input.changes)[0];
    expect(lead?.field === "update" && lead.kind === "changed").toBe(true);
    const sentence = "The update of 2026-03-01 10:02 UTC (Investigating) was rewritten, 58 minutes after it was posted.";
    expect(summarizeVersion(input).startsWith(sentence)).toBe(true);
    expect(headlineVersion(input).startsWith(sentence)).toBe(true);
    expect(headlineVersion(input)).toBe(`${sentence} Status changed from Investigating to Monitoring. New update (Monitoring): "A fix is deployed."`);
  });

  it("says every status as statusLabel does, never as the vendor's code", () => {
    const pairs: Array<[string, string]> = [["service_disruption", "service_information"], ["in_progress", "degraded_performance"], ["IN_PROGRESS", "identified"]];
    for (const [from, to] of pairs) {
      const before = makeIncident({ status: from, updates: [makeUpdate({ status: from })] });
      const after = makeIncident({ status: to, updates: [makeUpdate({ status: to })] });
      const text = summarize(before, after, "2026-03-01T11:00:00.000Z");
      expect(text).toContain(`Status changed from ${statusLabel(from)} to ${statusLabel(to)}.`);
      expect(text).toContain(`(${statusLabel(from)}) was relabelled ${statusLabel(to)}.`);
      expect(text).toContain(`; status: ${statusLabel(to)}.`);
      for (const code of [from, to]) {
        expect(text).not.toContain(code);
        expect(text).not.toContain(code.replace(/_/g, " "));
      }
    }
  });

  it("says feed presence in lib/labels' words", () => {
    const input = inputFor(resolved, resolved, "2026-03-02T11:00:00.000Z");
    const left = { ...input, state: { ...input.state, presence: "left-feed" as const }, changes: [{ field: "presence" as const, kind: "changed" as const, before: "listed" as const, after: "left-feed" as const }], kinds: ["incident-left-feed" as const] };
    expect(headlineVersion(left)).toBe(`${presenceLabel("left-feed")}.`);
  });
});

describe("a newly added source's first account of an archived incident", () => {
  const open = makeIncident({ status: "investigating" });
  const reported = makeIncident({
    status: "resolved",
    resolvedAt: "2026-03-01T11:00:00.000Z",
    updates: [
      makeUpdate(),
      makeUpdate({ id: "u2", status: "identified", body: "A deploy is the cause.", displayAt: "2026-03-01T10:30:00.000Z", createdAt: "2026-03-01T10:30:00.000Z" }),
      makeUpdate({ id: "u3", status: "resolved", body: "Fixed.", displayAt: "2026-03-01T11:00:00.000Z", createdAt: "2026-03-01T11:00:00.000Z" }),
    ],
  });
  const inputOf = (before: Incident, after: Incident) => {
    const prev: IncidentState = { incident: canonicalizeIncident(before), presence: "left-feed" };
    const state: IncidentState = { incident: canonicalizeIncident(after), presence: "listed" };
    const changes = diffStates(prev, state).filter((c) => c.field !== "presence");
    return { vendorName: "GitHub", state, previous: prev, changes, kinds: classifyChanges(changes, { isFirst: false, newSource: true }), observedAt: "2026-03-15T04:31:00.000Z" };
  };

  it("is one kind, whatever it changes: a first version is still new", () => {
    const input = inputOf(open, reported);
    expect(input.kinds).toEqual(["new-source-report"]);
    expect(classifyChanges(input.changes, { isFirst: true, newSource: true })).toEqual(["incident-new"]);
  });

  it("says a newly added source reported it, with the times that source gives, never as something that happened at the capture", () => {
    const input = inputOf(open, reported);
    const headline = headlineVersion(input);
    expect(headline).toBe(
      "Reported by a newly added source at its first capture, not seen as it happened: status Resolved (was Investigating), resolved at 2026-03-01 11:00 UTC and 2 updates posted from 2026-03-01 10:30 to 11:00 UTC, as that source gives them.",
    );
    expect(summarizeVersion(input)).toBe(`${headline} ${describeIncident("GitHub", input.state.incident)}`);
    expect(summarizeVersion(input)).not.toMatch(/Status changed|new updates were posted|after resolution/);
  });

  it("gives a postmortem's publication time and the fields the source words differently", () => {
    const withPostmortem = { ...reported, title: "API errors", postmortem: { body: "A bad deploy.", publishedAt: "2026-03-04T09:00:00.000Z" } };
    const resolvedBefore = { ...reported, updates: reported.updates.map((u) => (u.id === "u2" ? { ...u, body: "A deploy was the cause." } : u)) };
    expect(headlineVersion(inputOf(resolvedBefore, withPostmortem))).toBe(
      'Reported by a newly added source at its first capture, not seen as it happened: the title "API errors", 1 update worded differently and a postmortem published at 2026-03-04 09:00 UTC, as that source gives them.',
    );
  });
});

