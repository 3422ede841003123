import { describe, expect, it } from "vitest";
import type { Change } from "@/lib/change";
import type { IncidentState } from "@/lib/incident";
import { countReschedules, MAX_EVENTS, type MaintenanceRecord, maintenanceStatus, maintenanceUid, selectMaintenanceWindows, toMaintenanceEvent } from "@/lib/maintenance-calendar";
import { makeIncident, makeUpdate } from "@/tests/support/incidents";

const NOW = new Date("2026-04-05T00:00:00.000Z");

function record(id: string, scheduledFor: string | null, scheduledUntil: string | null, overrides: Partial<IncidentState["incident"]> = {}, presence: IncidentState["presence"] = "listed"): MaintenanceRecord {
  return {
    vendorSlug: "acme",
    vendorName: "Acme Cloud",
    providerId: id,
    lastChangedAt: "2026-04-01T00:00:00.000Z",
    current: { presence, incident: makeIncident({ id, kind: "maintenance", status: "scheduled", scheduledFor, scheduledUntil, ...overrides }) },
  };
}

const moved = (field: "scheduledFor" | "scheduledUntil", kind: Change["kind"] = "changed"): Change => ({ field, kind, before: "2026-04-10T00:00:00.000Z", after: "2026-04-11T00:00:00.000Z" });
const retitled: Change = { field: "title", kind: "changed", before: "a", after: "b" };

describe("reschedule count", () => {
  it("counts each version that moved the start or the end once, and nothing else", () => {
    expect(countReschedules([{ changes: [moved("scheduledFor", "added"), moved("scheduledUntil", "added")] }])).toBe(0);
    expect(countReschedules([{ changes: [] }, { changes: [moved("scheduledFor"), moved("scheduledUntil")] }, { changes: [retitled] }, { changes: [moved("scheduledUntil")] }])).toBe(2);
  });
});

describe("maintenance status", () => {
  it("is cancelled when the vendor deleted it or says it is cancelled, and confirmed otherwise", () => {
    expect(maintenanceStatus(record("m", "2026-04-10T00:00:00.000Z", null, {}, "deleted").current)).toBe("CANCELLED");
    expect(maintenanceStatus(record("m", "2026-04-10T00:00:00.000Z", null, { status: "Cancelled" }).current)).toBe("CANCELLED");
    expect(maintenanceStatus(record("m", "2026-04-10T00:00:00.000Z", null, {}, "left-feed").current)).toBe("CONFIRMED");
    expect(maintenanceStatus(record("m", "2026-04-10T00:00:00.000Z", null, { status: "in_progress" }).current)).toBe("CONFIRMED");
  });
});

describe("maintenance windows", () => {
  it("keep scheduled maintenances that end within 90 days back or later, in start order", () => {
    const kept = selectMaintenanceWindows(
      [
        record("future", "2026-05-01T00:00:00.000Z", "2026-05-01T02:00:00.000Z"),
        record("recent", "2026-01-10T00:00:00.000Z", "2026-01-10T02:00:00.000Z"),
        record("ended-long-ago", "2025-12-01T00:00:00.000Z", "2025-12-01T02:00:00.000Z"),
        record("no-end", "2026-02-01T00:00:00.000Z", null),
        record("unscheduled", null, null),
        { ...record("an-incident", "2026-04-10T00:00:00.000Z", null), current: { presence: "listed", incident: makeIncident({ scheduledFor: "2026-04-10T00:00:00.000Z" }) } },
      ],
      NOW,
    );
    expect(kept.map((r) => r.providerId)).toEqual(["recent", "no-end", "future"]);
  });

  it(`keep the ${MAX_EVENTS} latest windows when there are more`, () => {
    const many = Array.from({ length: MAX_EVENTS + 5 }, (_, i) => record(`m${i}`, new Date(Date.UTC(2026, 4, 1) + i * 3_600_000).toISOString(), null));
    const kept = selectMaintenanceWindows(many, NOW);
    expect(kept).toHaveLength(MAX_EVENTS);
    expect(kept[0]?.providerId).toBe("m5");
    expect(kept.at(-1)?.providerId).toBe(`m${MAX_EVENTS + 4}`);
  });
});

describe("maintenance events", () => {
  it("name the vendor and title, describe status, components and the latest update as plain text, and link the page", () => {
    const r = record("m1", "2026-04-10T22:00:00.000Z", "2026-04-11T02:00:00.000Z", {
      title: "Database upgrade",
      components: [{ id: "db", name: "Database" }, { id: "api", name: "API" }],
      updates: [
        makeUpdate({ id: "u1", body: "First notice", displayAt: "2026-04-01T00:00:00.000Z" }),
        makeUpdate({ id: "u2", body: "See [the plan](https://acme.test/plan) for **details**.", displayAt: "2026-04-02T00:00:00.000Z" }),
      ],
    });
    const event = toMaintenanceEvent(r, 2, "https://redline.test/vendors/acme/incidents/m1");
    expect(event).toMatchObject({
      uid: "m1@acme.redline",
      start: "2026-04-10T22:00:00.000Z",
      end: "2026-04-11T02:00:00.000Z",
      sequence: 2,
      status: "CONFIRMED",
      summary: "Acme Cloud: Database upgrade",
      url: "https://redline.test/vendors/acme/incidents/m1",
    });
    expect(event.description).toBe("Status: scheduled\nComponents: Database, API\n\nSee the plan (https://acme.test/plan) for details.");
  });

  it("say a deleted maintenance was deleted, give no end before the start, and bound a long title and description", () => {
    const r = record("m2", "2026-04-10T22:00:00.000Z", "2026-04-10T21:00:00.000Z", { title: "t".repeat(1_000), updates: [makeUpdate({ body: "x".repeat(10_000) })] }, "deleted");
    const event = toMaintenanceEvent(r, 0, "https://redline.test/x");
    expect(event.end).toBeNull();
    expect(event.description.startsWith("Status: deleted by the vendor\n")).toBe(true);
    expect(event.description.length).toBeLessThanOrEqual(4_000);
    expect(event.summary.length).toBeLessThanOrEqual(300);
    expect(event.summary.startsWith("Acme Cloud: ttt")).toBe(true);
  });

  it("say the status of one that left the feed is as last listed", () => {
    const event = toMaintenanceEvent(record("m3", "2026-04-10T22:00:00.000Z", null, { status: "in_progress", components: [] }, "left-feed"), 0, "https://redline.test/x");
    expect(event.description.split("\n")[0]).toBe("Status: in_progress (when last listed)");
  });

  it("have a UID of provider id and vendor slug", () => {
    expect(maintenanceUid("acme", "0g08w3s3xd87")).toBe("0g08w3s3xd87@acme.redline");
  });
});
