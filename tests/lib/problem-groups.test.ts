import { describe, expect, it } from "vitest";
import { paginate } from "@/lib/paginate";
import { describeProblem, type FailingSource, groupProblems } from "@/lib/problem-groups";

function dnsFailure(i: number): FailingSource {
  const slug = `vendor-${String(i).padStart(3, "0")}`;
  return {
    vendorSlug: slug,
    vendorName: `Vendor ${i}`,
    error: `${slug}: https://status.${slug}.example.com/api/v2/summary.json: cannot resolve status.${slug}.example.com (EAI_AGAIN)`,
    since: `2026-12-01T0${i % 10}:00:00.000Z`,
    lastAt: `2026-12-02T0${i % 10}:30:00.000Z`,
  };
}

describe("describing a poll failure without what differs between vendors", () => {
  it("leaves out the vendor's slug, its address and its host name", () => {
    expect(describeProblem("github: https://www.githubstatus.com/api/v2/summary.json: cannot resolve www.githubstatus.com (ENOTFOUND)", "github"))
      .toBe("cannot resolve <host> (ENOTFOUND)");
  });

  it("keeps what tells problems apart: status codes, error codes, the reason", () => {
    expect(describeProblem("acme: https://status.acme.test/x.json: HTTP 503", "acme")).toBe("HTTP 503");
    expect(describeProblem("acme: https://status.acme.test/x.json: connect ECONNREFUSED 10.0.0.7:443", "acme")).toBe("connect ECONNREFUSED <address>");
    expect(describeProblem("https://status.acme.test/x.json: invalid snapshot", "acme")).toBe("invalid snapshot");
    expect(describeProblem("", "acme")).toBe("failed without a message");
  });
});

describe("grouping failing vendors by problem", () => {
  it("makes one group of one DNS error that 156 vendors share, with its count, vendors and first and last seen", () => {
    const failing = Array.from({ length: 156 }, (_, i) => dnsFailure(i));
    const groups = groupProblems(failing);
    expect(groups).toHaveLength(1);
    const [dns] = groups;
    expect(dns?.problem).toBe("cannot resolve <host> (EAI_AGAIN)");
    expect(dns?.vendors).toHaveLength(156);
    expect(dns?.firstSeen).toBe("2026-12-01T00:00:00.000Z");
    expect(dns?.lastSeen).toBe("2026-12-02T09:30:00.000Z");
    expect(dns?.example).toBe(failing[0]?.error);
  });

  it("keeps different problems apart, the one hitting most vendors first, and counts a vendor once", () => {
    const groups = groupProblems([
      { vendorSlug: "a", vendorName: "a", error: "a: https://a.test/x: HTTP 503", since: null, lastAt: "2026-12-02T01:00:00.000Z" },
      dnsFailure(1),
      { vendorSlug: "B", vendorName: "Beta", error: "B: https://b.test/x: HTTP 503", since: "2026-12-01T05:00:00.000Z", lastAt: "2026-12-02T02:00:00.000Z" },
      { vendorSlug: "B", vendorName: "Beta", error: "B: https://b.test/feed.atom: HTTP 503", since: "2026-12-01T04:00:00.000Z", lastAt: "2026-12-02T00:00:00.000Z" },
    ]);
    expect(groups.map((g) => [g.problem, g.vendors.map((v) => v.name)])).toEqual([
      ["HTTP 503", ["a", "Beta"]],
      ["cannot resolve <host> (EAI_AGAIN)", ["Vendor 1"]],
    ]);
    expect(groups[0]).toMatchObject({ firstSeen: "2026-12-01T04:00:00.000Z", lastSeen: "2026-12-02T02:00:00.000Z" });
  });

  it("has no group when nothing fails", () => {
    expect(groupProblems([])).toEqual([]);
  });
});

describe("paging a list", () => {
  const items = Array.from({ length: 156 }, (_, i) => i + 1);

  it("gives the requested page with the positions of its first and last item", () => {
    expect(paginate(items, 2, 50)).toMatchObject({ page: 2, pages: 4, first: 51, last: 100, total: 156 });
    expect(paginate(items, 4, 50).items).toEqual([151, 152, 153, 154, 155, 156]);
  });

  it("gives the last page for a page past the end, and the first for a page that is not a whole number from 1", () => {
    expect(paginate(items, 99, 50).page).toBe(4);
    expect(paginate(items, 0, 50).page).toBe(1);
    expect(paginate(items, Number.NaN, 50).page).toBe(1);
    expect(paginate(items, 1.5, 50).page).toBe(1);
  });

  it("has one empty page for an empty list", () => {
    expect(paginate([], 3, 50)).toEqual({ items: [], page: 1, pages: 1, first: 0, last: 0, total: 0 });
  });
});
