import { describe, expect, it } from "vitest";
import { formatDuration, formatRelative, formatSignedSpan, formatSpan } from "@/lib/format";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe("time spans", () => {
  it("say which side of the reference a span falls on", () => {
    expect(formatSignedSpan(2 * HOUR)).toBe("2 hours after");
    expect(formatSignedSpan(-4 * DAY)).toBe("4 days before");
    expect(formatSignedSpan(-4 * DAY, { after: "after it was posted", before: "before the time it shows" })).toBe("4 days before the time it shows");
    expect(formatSignedSpan(5 * 60_000, { after: "after it was posted", before: "before the time it shows" })).toBe("5 minutes after it was posted");
  });

  it("keep the magnitude the same on both sides", () => {
    expect(formatSpan(-4 * DAY)).toBe(formatSpan(4 * DAY));
    expect(formatSpan(-20_000)).toBe("moments");
  });

  it("keep the minus sign of a duration that runs backwards, an end before its start", () => {
    expect(formatDuration(42 * 60_000)).toBe("42 min");
    expect(formatDuration(-(3 * HOUR + 5 * 60_000))).toBe("−3 h 5 min");
    expect(formatDuration(-(2 * DAY + 4 * HOUR))).toBe("−2 days 4 h");
    expect(formatDuration(-10_000)).toBe("0 min");
  });

  it("read as ago or in the future relative to now", () => {
    const now = new Date("2026-03-05T00:00:00.000Z");
    expect(formatRelative("2026-03-02T00:00:00.000Z", now)).toBe("3 days ago");
    expect(formatRelative("2026-03-05T02:00:00.000Z", now)).toBe("in 2 hours");
  });
});
