import { describe, expect, it } from "vitest";
import { describePollProblem, groupPollProblems, type PolledVendor } from "@/lib/poll-problems";

const vendor = (slug: string, lastOutcome: string | null, lastError: string | null, url = `https://status.${slug}.com`): PolledVendor => ({
  slug, name: slug.toUpperCase(), url, lastOutcome, lastError,
});

describe("describePollProblem", () => {
  it("takes the vendor's host out of the error, with or without its port", () => {
    expect(describePollProblem("cannot resolve status.acme.com (ENOTFOUND)", "https://status.acme.com/api/v2/summary.json")).toBe("cannot resolve ‹host› (ENOTFOUND)");
    expect(describePollProblem("127.0.0.1:9: connect ECONNREFUSED 127.0.0.1:9", "http://127.0.0.1:9/")).toBe("‹host›: connect ECONNREFUSED ‹host›");
  });

  it("takes out other host names too (a redirect's target), but keeps status codes and byte counts", () => {
    expect(describePollProblem("cdn.example.net answered HTTP 503", "https://status.acme.com")).toBe("‹host› answered HTTP 503");
    expect(describePollProblem("status.acme.com sent 9000000 bytes, over the 8388608-byte cap", "https://status.acme.com")).toBe("‹host› sent 9000000 bytes, over the 8388608-byte cap");
  });

  it("says so when a failure recorded no error", () => {
    expect(describePollProblem(null, null)).toBe("no error recorded");
  });
});

describe("groupPollProblems", () => {
  it("puts every vendor failing the same way in one group, the most widespread problem first, and leaves out healthy and unpolled vendors", () => {
    const groups = groupPollProblems([
      vendor("a", "failed", "cannot resolve status.a.com (ENOTFOUND)"),
      vendor("b", "ok", null),
      vendor("c", "failed", "status.c.com answered HTTP 500"),
      vendor("d", "failed", "cannot resolve status.d.com (ENOTFOUND)"),
      vendor("e", null, null),
      vendor("f", "invalid", "cannot resolve status.f.com (ENOTFOUND)"),
    ]);
    expect(groups).toEqual([
      { outcome: "failed", problem: "cannot resolve ‹host› (ENOTFOUND)", vendors: [{ slug: "a", name: "A" }, { slug: "d", name: "D" }] },
      { outcome: "failed", problem: "‹host› answered HTTP 500", vendors: [{ slug: "c", name: "C" }] },
      { outcome: "invalid", problem: "cannot resolve ‹host› (ENOTFOUND)", vendors: [{ slug: "f", name: "F" }] },
    ]);
  });
});
