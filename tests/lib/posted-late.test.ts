import { describe, expect, it } from "vitest";
import type { Change } from "@/lib/change";
import type { IncidentUpdate } from "@/lib/incident";
import { platformProfileOf } from "@/lib/platform-profiles";
import { findPostedLate, type VersionSighting } from "@/lib/posted-late";

const MIN = 60_000;
const T = (hhmm: string) => `2026-03-01T${hhmm}:00.000Z`;
const update = (id: string, displayAt: string, createdAt: string | null = displayAt): IncidentUpdate => ({ id, status: "investigating", body: "Looking into it", displayAt: T(displayAt), createdAt: createdAt === null ? null : T(createdAt) });
const added = (u: IncidentUpdate): Change => ({ field: "update", kind: "added", updateId: u.id, before: null, after: u });
const startedAt = (iso: string): Change => ({ field: "startedAt", kind: "added", before: null, after: iso });
const started = (hhmm: string): Change => startedAt(T(hhmm));
const version = (seq: number, observedAt: string, previousGoodAt: string | null, changes: Change[], platform = "statuspage-incidents"): VersionSighting => ({ seq, platform, observedAt: T(observedAt), previousGoodAt: previousGoodAt === null ? null : T(previousGoodAt), changes });

describe("posted late", () => {
  it("bounds an incident by the source's previous good capture that did not show it, not by the capture that did", () => {
    const found = findPostedLate("incident", [version(1, "10:30", "10:20", [started("10:08"), added(update("u1", "10:08"))])], platformProfileOf);
    expect(found.incident).toEqual({ givenAt: T("10:08"), boundAt: T("10:20"), firstSeenAt: T("10:30"), seq: 1, atLeastMs: 12 * MIN });
    expect(found.updates).toEqual([{ updateId: "u1", givenAt: T("10:08"), boundAt: T("10:20"), firstSeenAt: T("10:30"), seq: 1, atLeastMs: 12 * MIN }]);
  });

  it("finds an update posted late in a later version by its displayed time, each update once", () => {
    const found = findPostedLate("incident", [
      version(1, "10:00", "09:55", [started("09:58"), added(update("u1", "09:58"))]),
      version(2, "11:00", "10:55", [added(update("u2", "10:40", "10:54"))]),
      version(3, "11:30", "11:25", [added(update("u2", "10:40"))]),
    ], platformProfileOf);
    expect(found.incident).toBeNull();
    expect(found.updates.map((u) => [u.updateId, u.seq, u.atLeastMs])).toEqual([["u2", 2, 15 * MIN]]);
  });

  it("says nothing from a source's first capture, a source listing one incident, a late start of a maintenance, or less than a minute", () => {
    expect(findPostedLate("incident", [version(1, "10:30", null, [started("09:00"), added(update("u1", "09:00"))])], platformProfileOf)).toEqual({ incident: null, updates: [] });
    expect(findPostedLate("incident", [version(1, "10:30", "10:20", [started("09:00")], "statuspage-incident")], platformProfileOf).incident).toBeNull();
    expect(findPostedLate("maintenance", [version(1, "10:30", "10:20", [started("09:00")])], platformProfileOf).incident).toBeNull();
    const late = findPostedLate("incident", [version(1, "10:30", "10:20", [startedAt("2026-03-01T10:19:30.000Z")])], platformProfileOf);
    expect(late.incident).toBeNull();
  });

  it("reads a time printed to the minute as its minute's last second, and no start only inferred from the updates", () => {
    const found = findPostedLate("incident", [version(1, "10:30", "10:20", [started("10:00"), added(update("u1", "10:05", null))], "statuspage-atom")], platformProfileOf);
    expect(found.incident).toBeNull();
    expect(found.updates.map((u) => u.atLeastMs)).toEqual([14 * MIN + 1]);
  });
});
