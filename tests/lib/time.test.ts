import { describe, expect, it } from "vitest";
import { epochSecondsToUtc, TimestampError, toUtcIso, utcDayOf, zoneAbbreviationOffset } from "@/lib/time";

describe("toUtcIso", () => {
  it("converts a New York offset on either side of a DST change to UTC", () => {
    expect(toUtcIso("2023-03-11T22:15:00.123-05:00")).toBe("2023-03-12T03:15:00.123Z");
    expect(toUtcIso("2023-03-13T22:15:00.123-04:00")).toBe("2023-03-14T02:15:00.123Z");
  });

  it("keeps milliseconds, pads missing ones and cuts extra digits", () => {
    expect(toUtcIso("2025-04-01T08:31:47.953Z")).toBe("2025-04-01T08:31:47.953Z");
    expect(toUtcIso("2025-07-18T14:42:00+00:00")).toBe("2025-07-18T14:42:00.000Z");
    expect(toUtcIso("2025-07-18T14:42:00.1234567Z")).toBe("2025-07-18T14:42:00.123Z");
  });

  it("accepts offsets without a colon and half-hour zones", () => {
    expect(toUtcIso("2024-01-01T12:00:00+0530")).toBe("2024-01-01T06:30:00.000Z");
  });

  it("refuses a timestamp without an offset unless told which one the vendor meant", () => {
    expect(() => toUtcIso("2024-01-01 12:00:00")).toThrow(TimestampError);
    expect(toUtcIso("2024-01-01 12:00:00", { assumeOffsetMinutes: 0 })).toBe("2024-01-01T12:00:00.000Z");
  });

  it("refuses impossible dates and text that is not a timestamp", () => {
    expect(() => toUtcIso("2024-02-30T00:00:00Z")).toThrow(/impossible/);
    expect(() => toUtcIso("yesterday")).toThrow(/not an ISO-8601/);
  });
});

describe("zones and epochs", () => {
  it("knows the abbreviations status pages print", () => {
    expect(zoneAbbreviationOffset("PST")).toBe(-480);
    expect(zoneAbbreviationOffset("pdt")).toBe(-420);
    expect(zoneAbbreviationOffset("UTC+5:30")).toBe(330);
    expect(zoneAbbreviationOffset("XYZ")).toBeNull();
  });

  it("reads epoch seconds given as text", () => {
    expect(epochSecondsToUtc("1638894176")).toBe("2021-12-07T16:22:56.000Z");
    expect(() => epochSecondsToUtc("16e8")).toThrow(TimestampError);
  });

  it("refuses times past year 9999, which ISO strings would write with a six-digit year", () => {
    expect(() => epochSecondsToUtc("8640000000000")).toThrow(TimestampError);
    expect(() => toUtcIso("9999-12-31T23:59:59-12:00")).toThrow(TimestampError);
    expect(toUtcIso("9999-12-31T23:59:59+12:00")).toBe("9999-12-31T11:59:59.000Z");
  });
});

describe("utcDayOf", () => {
  it("names the same UTC day as Date for every day of 1899 to 2101 and random instants of years 0 to 9999", () => {
    const DAY = 86_400_000;
    for (let ms = Date.UTC(1899, 0, 1); ms < Date.UTC(2102, 0, 1); ms += DAY) {
      for (const at of [ms, ms + DAY - 1]) expect(utcDayOf(at)).toBe(new Date(at).toISOString().slice(0, 10));
    }
    let seed = 7;
    const low = Date.parse("0000-01-01T00:00:00.000Z");
    const high = Date.parse("9999-12-31T23:59:59.999Z");
    for (let i = 0; i < 20_000; i += 1) {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      const at = Math.floor(low + (seed / 2_147_483_648) * (high - low));
      expect(utcDayOf(at)).toBe(new Date(at).toISOString().slice(0, 10));
    }
    expect(utcDayOf(low)).toBe("0000-01-01");
    expect(utcDayOf(high)).toBe("9999-12-31");
  });

  it("refuses an instant outside years 0 to 9999 or not a number", () => {
    expect(() => utcDayOf(Date.parse("0000-01-01T00:00:00.000Z") - 1)).toThrow(TimestampError);
    expect(() => utcDayOf(Date.parse("9999-12-31T23:59:59.999Z") + 1)).toThrow(TimestampError);
    expect(() => utcDayOf(Number.NaN)).toThrow(TimestampError);
  });
});
