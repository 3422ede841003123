import { describe, expect, it } from "vitest";
import { FailureBudget } from "@/lib/failure-budget";

describe("failure budget", () => {
  it("hears five failed attempts at once, then makes the client wait ten seconds for each next one", () => {
    const budget = new FailureBudget({ burst: 5, intervalSeconds: 10 });
    const waits: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      waits.push(budget.waitSeconds("203.0.113.5", 0));
      budget.fail("203.0.113.5", 0);
    }
    expect(waits).toEqual([0, 0, 0, 0, 0]);
    expect(budget.waitSeconds("203.0.113.5", 0)).toBe(10);
    expect(budget.waitSeconds("203.0.113.5", 4_000)).toBe(6);
    expect(budget.waitSeconds("203.0.113.5", 10_000)).toBe(0);
    budget.fail("203.0.113.5", 10_000);
    expect(budget.waitSeconds("203.0.113.5", 10_000)).toBe(10);
  });

  it("counts each client on its own: one client's failures never make another wait", () => {
    const budget = new FailureBudget({ burst: 2, intervalSeconds: 10 });
    budget.fail("203.0.113.5", 0);
    budget.fail("203.0.113.5", 0);
    expect(budget.waitSeconds("203.0.113.5", 0)).toBe(10);
    expect(budget.waitSeconds("198.51.100.7", 0)).toBe(0);
  });

  it("says how many failures are left before the client waits", () => {
    const budget = new FailureBudget({ burst: 3, intervalSeconds: 10 });
    expect([budget.fail("a", 0), budget.fail("a", 0), budget.fail("a", 0)]).toEqual([2, 1, 0]);
  });

  it("lengthens the wait for failures that were already under way when the budget ran out", () => {
    const budget = new FailureBudget({ burst: 2, intervalSeconds: 10 });
    for (let i = 0; i < 4; i += 1) budget.fail("a", 0);
    expect(budget.waitSeconds("a", 0)).toBe(30);
  });

  it("never makes anyone wait with an interval of 0", () => {
    const budget = new FailureBudget({ burst: 1, intervalSeconds: 0 });
    for (let i = 0; i < 10; i += 1) budget.fail("a", 0);
    expect(budget.waitSeconds("a", 0)).toBe(0);
  });
});
