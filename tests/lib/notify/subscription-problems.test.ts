import { describe, expect, it } from "vitest";
import { groupSubscriptionProblems, type TroubledSubscription } from "@/lib/notify/subscription-problems";

function subscription(over: Partial<TroubledSubscription>): TroubledSubscription {
  return {
    id: "sub_1", format: "webhook", target: "https://hooks.example.com/in", status: "active", disabledAt: null, disabledReason: null,
    failingSince: null, lastError: null, lastAttemptAt: null, ...over,
  };
}

describe("grouping subscriptions that need the operator", () => {
  it("leaves out healthy subscriptions", () => {
    expect(groupSubscriptionProblems([subscription({}), subscription({ id: "sub_2" })])).toEqual([]);
  });

  it("makes one group of subscriptions failing the same way at different receivers, since the earliest failure", () => {
    const groups = groupSubscriptionProblems([
      subscription({ id: "sub_a", target: "https://a.example.com/hook", failingSince: "2026-12-02T10:00:00.000Z", lastError: "https://a.example.com/hook: HTTP 500", lastAttemptAt: "2026-12-02T12:00:00.000Z" }),
      subscription({ id: "sub_b", target: "https://b.example.net/hook", failingSince: "2026-12-02T09:00:00.000Z", lastError: "https://b.example.net/hook: HTTP 500", lastAttemptAt: "2026-12-02T12:30:00.000Z" }),
    ]);
    expect(groups).toHaveLength(1);
    expect(groups[0]).toMatchObject({ state: "failing", problem: "HTTP 500", since: "2026-12-02T09:00:00.000Z", lastSeen: "2026-12-02T12:30:00.000Z" });
    expect(groups[0]?.subscriptions.map((s) => s.id)).toEqual(["sub_a", "sub_b"]);
  });

  it("lists disabled subscriptions first, with why and since when, apart from failing ones", () => {
    const groups = groupSubscriptionProblems([
      subscription({ id: "sub_f", failingSince: "2026-12-02T11:00:00.000Z", lastError: "timed out after 10000 ms" }),
      subscription({ id: "sub_g", status: "disabled", disabledAt: "2026-12-01T08:00:00.000Z", disabledReason: "the target answered 410 Gone" }),
    ]);
    expect(groups.map((g) => [g.state, g.problem, g.since])).toEqual([
      ["disabled", "the target answered 410 Gone", "2026-12-01T08:00:00.000Z"],
      ["failing", "timed out after 10000 ms", "2026-12-02T11:00:00.000Z"],
    ]);
  });

  it("keeps a disabled subscription's reason as its example, not its last delivery error", () => {
    const [group] = groupSubscriptionProblems([
      subscription({ status: "disabled", disabledAt: "2026-12-01T08:00:00.000Z", disabledReason: "failing for a day", failingSince: "2026-11-30T08:00:00.000Z", lastError: "HTTP 502" }),
    ]);
    expect(group).toMatchObject({ state: "disabled", example: "failing for a day" });
  });
});
