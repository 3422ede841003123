import { describe, expect, it } from "vitest";
import { archivedRangeOf, reportPeriod, untilInstantOf } from "@/lib/report-period";

const NOW = new Date("2026-12-02T01:00:00.000Z");

describe("the period of a vendor's figures", () => {
  it("covers the archived range when none is asked, so a 2021 archive shows 2021", () => {
    const period = reportPeriod({}, { first: "2021-03-04T10:00:00.000Z", last: "2021-12-20T23:59:00.000Z" }, NOW);
    expect(period).toEqual({ since: "2021-03-04", until: "2021-12-20", sinceAt: "2021-03-04T00:00:00.000Z", untilAt: "2021-12-21T00:00:00.000Z", wholeArchive: true });
  });

  it("takes each end asked for, and the other from the archive", () => {
    const archived = { first: "2021-03-04T10:00:00.000Z", last: "2021-12-20T23:59:00.000Z" };
    expect(reportPeriod({ since: "2021-06-01" }, archived, NOW)).toMatchObject({ since: "2021-06-01", until: "2021-12-20", wholeArchive: false });
    expect(reportPeriod({ until: "2021-06-30" }, archived, NOW)).toMatchObject({ since: "2021-03-04", until: "2021-06-30", untilAt: "2021-07-01T00:00:00.000Z" });
  });

  it("falls back to the twelve months up to today for a vendor with nothing archived", () => {
    expect(reportPeriod({}, { first: null, last: null }, NOW)).toMatchObject({ since: "2025-12-03", until: "2026-12-02" });
  });

  it("never ends before it starts", () => {
    const period = reportPeriod({ since: "2023-01-01" }, { first: "2021-03-04T10:00:00.000Z", last: "2021-12-20T23:59:00.000Z" }, NOW);
    expect(period).toMatchObject({ since: "2023-01-01", until: "2023-01-01" });
    expect(reportPeriod({ until: "2020-01-31" }, { first: "2021-03-04T10:00:00.000Z", last: "2021-12-20T23:59:00.000Z" }, NOW)).toMatchObject({ since: "2019-02-01", until: "2020-01-31" });
  });

  it("finds the archive's extent among instants some of which are missing", () => {
    expect(archivedRangeOf([null, "2021-05-01T00:00:00.000Z", "2020-11-30T08:00:00.000Z", "2021-12-01T00:00:00.000Z", ""])).toEqual({ first: "2020-11-30T08:00:00.000Z", last: "2021-12-01T00:00:00.000Z" });
    expect(archivedRangeOf([null, null])).toEqual({ first: null, last: null });
  });

  it("ends an until day at the next midnight, so the day itself is included", () => {
    expect(untilInstantOf("2021-12-31")).toBe("2022-01-01T00:00:00.000Z");
  });
});
