import { describe, expect, it } from "vitest";
import { canonicalizeIncident } from "@/lib/canonicalize";
import { classifyChanges } from "@/lib/derive/classify-changes";
import { diffStates } from "@/lib/diff-incidents";
import { excerptSentences } from "@/lib/format";
import type { Incident, IncidentState } from "@/lib/incident";
import { headlineVersion, summarizeVersion } from "@/lib/summarize";
import { makeIncident, makeUpdate } from "@/tests/support/incidents";

function inputFor(before: Incident | null, after: Incident, observedAt: string) {
  const prev: IncidentState | null = before ? { incident: canonicalizeIncident(before), presence: "listed" } : null;
  const state: IncidentState = { incident: canonicalizeIncident(after), presence: "listed" };
  const changes = diffStates(prev, state);
  return { vendorName: "Acme", state, previous: prev, changes, kinds: classifyChanges(changes, { isFirst: prev === null }), observedAt };
}

/** Announced on the 7th at 08:00 for a window on the 8th, 02:00-04:00; Statuspage gives the announcement as its start. */
const announced = makeIncident({
  kind: "maintenance",
  impact: "maintenance",
  title: "Database upgrade",
  status: "scheduled",
  startedAt: "2026-03-07T08:00:00.000Z",
  scheduledFor: "2026-03-08T02:00:00.000Z",
  scheduledUntil: "2026-03-08T04:00:00.000Z",
  updates: [makeUpdate({ status: "scheduled", body: "We will upgrade the database.", createdAt: "2026-03-07T08:00:00.000Z", displayAt: "2026-03-07T08:00:00.000Z" })],
});

describe("a maintenance's times in its summary", () => {
  it("dates a new maintenance from its window: archived ahead of it, how long before, never 'after it started'", () => {
    const input = inputFor(null, announced, "2026-03-07T15:00:00.000Z");
    expect(headlineVersion(input)).toBe("New maintenance. First archived 11 hours before its window.");
    expect(summarizeVersion(input)).not.toContain("after it started");
  });

  it("says how long after its window began a maintenance first archived during it was", () => {
    expect(headlineVersion(inputFor(null, announced, "2026-03-08T02:30:00.000Z"))).toBe("New maintenance. First archived 30 minutes after its window began.");
  });

  it("gives a completed maintenance's length from its window, not from when it was announced", () => {
    const completed = { ...announced, status: "completed", resolvedAt: "2026-03-08T04:00:00.000Z" };
    expect(summarizeVersion(inputFor(announced, completed, "2026-03-08T04:05:00.000Z"))).toContain(
      "scheduled for 2026-03-08 02:00 UTC to 2026-03-08 04:00 UTC and resolved at 2026-03-08 04:00 UTC (2 h).",
    );
  });

  it("says a window moved whole once, in one sentence", () => {
    const moved = { ...announced, scheduledFor: "2026-03-08T04:00:00.000Z", scheduledUntil: "2026-03-08T06:00:00.000Z" };
    expect(headlineVersion(inputFor(announced, moved, "2026-03-07T20:00:00.000Z"))).toBe(
      "Window moved from 2026-03-08 02:00–04:00 UTC to 2026-03-08 04:00–06:00 UTC (2 hours later).",
    );
  });

  it("says a reschedule once where the feed starts a maintenance at its window and so moves its start with it (Instatus)", () => {
    const atWindow = { ...announced, startedAt: announced.scheduledFor };
    const moved = { ...atWindow, startedAt: "2026-03-08T04:00:00.000Z", scheduledFor: "2026-03-08T04:00:00.000Z", scheduledUntil: "2026-03-08T06:00:00.000Z" };
    const headline = headlineVersion(inputFor(atWindow, moved, "2026-03-07T20:00:00.000Z"));
    expect(headline).toBe("Window moved from 2026-03-08 02:00–04:00 UTC to 2026-03-08 04:00–06:00 UTC (2 hours later).");
    expect(headline).not.toContain("Start moved");
  });

  it("still says a start that moved on its own", () => {
    const early = { ...announced, startedAt: "2026-03-08T01:50:00.000Z", status: "in_progress" };
    expect(headlineVersion(inputFor(announced, early, "2026-03-08T01:55:00.000Z"))).toContain("Start moved from 2026-03-07 08:00 UTC to 2026-03-08 01:50 UTC");
  });

  it("says one end of a window moved by itself as that end", () => {
    const longer = { ...announced, scheduledUntil: "2026-03-08T05:00:00.000Z" };
    expect(headlineVersion(inputFor(announced, longer, "2026-03-07T20:00:00.000Z"))).toBe(
      "Scheduled end moved from 2026-03-08 04:00 UTC to 2026-03-08 05:00 UTC (60 minutes later).",
    );
  });
});

describe("a summary cut to a line of a list", () => {
  // What the change list said of a reschedule before it was said once; cut at 220 characters it ended "… 04:00 UTC to…".
  const threeMoves =
    "Start moved from 2026-03-08 02:00 UTC to 2026-03-08 04:00 UTC (2 hours later). Scheduled start moved from 2026-03-08 02:00 UTC to 2026-03-08 04:00 UTC (2 hours later). Scheduled end moved from 2026-03-08 04:00 UTC to 2026-03-08 06:00 UTC (2 hours later).";

  it("keeps whole sentences, never ending inside one on 'to…'", () => {
    expect(excerptSentences(threeMoves, 220)).toBe(
      "Start moved from 2026-03-08 02:00 UTC to 2026-03-08 04:00 UTC (2 hours later). Scheduled start moved from 2026-03-08 02:00 UTC to 2026-03-08 04:00 UTC (2 hours later). …",
    );
    expect(excerptSentences(threeMoves, 120)).toBe("Start moved from 2026-03-08 02:00 UTC to 2026-03-08 04:00 UTC (2 hours later). …");
  });

  it("keeps a text that fits whole, and cuts a first sentence longer than the line at a word", () => {
    expect(excerptSentences(threeMoves, 500)).toBe(threeMoves);
    expect(excerptSentences("New update: the whole of a very long first sentence goes on", 30)).toBe("New update: the whole of a…");
  });
});
