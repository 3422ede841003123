import { describe, expect, it } from "vitest";
import type { Change } from "@/lib/change";
import { orderChanges } from "@/lib/change-order";
import type { IncidentUpdate } from "@/lib/incident";

const update = (id: string, body: string, displayAt = "2026-03-01T10:00:00.000Z"): IncidentUpdate => ({ id, status: "investigating", body, createdAt: displayAt, displayAt });

const postmortem: Change = { field: "postmortem", kind: "changed", before: { body: "Root cause: a bad deploy.", publishedAt: null }, after: { body: "Root cause: a config push.", publishedAt: null } };
const posted: Change = { field: "update", kind: "added", updateId: "u3", before: null, after: update("u3", "A fix is deployed.") };
const edited: Change = { field: "update", kind: "changed", updateId: "u1", before: update("u1", "Errors on the REST API."), after: update("u1", "Errors for a few customers.") };
const removed: Change = { field: "update", kind: "removed", updateId: "u2", before: update("u2", "Data loss possible."), after: null };
const status: Change = { field: "status", kind: "changed", before: "investigating", after: "monitoring" };
const impactDown: Change = { field: "impact", kind: "changed", before: "major", after: "minor" };
const impactUp: Change = { field: "impact", kind: "changed", before: "minor", after: "critical" };
const title: Change = { field: "title", kind: "changed", before: "API errors", after: "Elevated latency" };
const started: Change = { field: "startedAt", kind: "changed", before: "2026-03-01T09:00:00.000Z", after: "2026-03-01T09:40:00.000Z" };
const resolvedWithStatus: Change = { field: "resolvedAt", kind: "added", before: null, after: "2026-03-01T12:00:00.000Z" };
const resolved: Change = { field: "status", kind: "changed", before: "monitoring", after: "resolved" };

const fields = (changes: readonly Change[]) => changes.map((c) => ("updateId" in c ? `update:${c.updateId}` : c.field));

describe("orderChanges", () => {
  it("puts impact, status, title and timing before updates, and the postmortem last", () => {
    const ordered = orderChanges([postmortem, posted, started, title, status, impactDown]);
    expect(fields(ordered)).toEqual(["impact", "status", "title", "startedAt", "update:u3", "postmortem"]);
  });

  it("leads with a moved start time over a raised impact, as the version's heading does", () => {
    const ordered = orderChanges([posted, impactUp, started]);
    expect(fields(ordered)).toEqual(["startedAt", "impact", "update:u3"]);
  });

  it("leads with the change the version is headed by, even when its field ranks lower", () => {
    // The version is an "Update edited" (it outranks a status change), so the edit heads the page.
    const ordered = orderChanges([status, posted, edited]);
    expect(fields(ordered)).toEqual(["update:u1", "status", "update:u3"]);
  });

  it("leads with a lowered impact over an edited update and a rewritten postmortem", () => {
    const ordered = orderChanges([postmortem, edited, impactDown, posted]);
    expect(fields(ordered)).toEqual(["impact", "update:u1", "update:u3", "postmortem"]);
  });

  it("shows removed and edited updates before newly posted ones", () => {
    const ordered = orderChanges([impactDown, posted, edited, removed]);
    expect(fields(ordered)).toEqual(["impact", "update:u1", "update:u2", "update:u3"]);
  });

  it("does not take an end time that comes with the resolution for a moved time", () => {
    const ordered = orderChanges([posted, resolvedWithStatus, resolved]);
    // Resolved outranks a posted update; the end time is not a timing change, so it follows by field.
    expect(fields(ordered)).toEqual(["status", "resolvedAt", "update:u3"]);
  });

  it("orders a first version by field alone, since everything in it is new", () => {
    const added = (c: Change): Change => ({ ...c, kind: "added", before: null }) as Change;
    const ordered = orderChanges([added(posted), added(title), added(status), added(impactUp)], { isFirst: true });
    expect(fields(ordered)).toEqual(["impact", "status", "title", "update:u3"]);
  });

  it("keeps every change exactly once", () => {
    const input = [postmortem, posted, edited, removed, status, impactDown, title, started];
    const ordered = orderChanges(input);
    expect(ordered).toHaveLength(input.length);
    expect(new Set(ordered)).toEqual(new Set(input));
  });
});
