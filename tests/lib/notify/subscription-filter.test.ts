import { describe, expect, it } from "vitest";
import { type ChangeFacts, describeFilter, matchesSubscription, subscriptionFilterSchema } from "@/lib/notify/subscription-filter";
import { resolveTarget, SubscriptionTargetError } from "@/lib/notify/subscription-target";

const facts = (over: Partial<ChangeFacts> = {}): ChangeFacts => ({ vendor: "github", kinds: ["update-edited"], components: ["API", "Actions"], impacts: ["minor"], ...over });
const filter = (f: object) => subscriptionFilterSchema.parse(f);

describe("a subscription's filter", () => {
  it("matches every change when it has no filter", () => {
    expect(matchesSubscription(filter({}), null, facts())).toBe(true);
    expect(describeFilter(filter({}), null)).toBe("every change");
  });

  it("ORs the values of one filter and ANDs the kinds of filter", () => {
    const f = filter({ vendors: ["github", "slack"], kinds: ["update-edited", "incident-deleted"] });
    expect(matchesSubscription(f, null, facts())).toBe(true);
    expect(matchesSubscription(f, null, facts({ vendor: "slack", kinds: ["incident-deleted"] }))).toBe(true);
    expect(matchesSubscription(f, null, facts({ vendor: "aws" }))).toBe(false);
    expect(matchesSubscription(f, null, facts({ kinds: ["incident-new"] }))).toBe(false);
  });

  it("matches components by name whatever their case, and impact at or above the floor before or after the change", () => {
    expect(matchesSubscription(filter({ components: ["actions"] }), null, facts())).toBe(true);
    expect(matchesSubscription(filter({ components: ["Pages"] }), null, facts())).toBe(false);
    expect(matchesSubscription(filter({ minImpact: "major" }), null, facts())).toBe(false);
    expect(matchesSubscription(filter({ minImpact: "major" }), null, facts({ impacts: ["critical", "none"] }))).toBe(true);
    expect(matchesSubscription(filter({ minImpact: "minor" }), null, facts({ impacts: ["maintenance", null] }))).toBe(false);
  });

  it("limits a watchlist to its vendors, and a narrowed member to its components", () => {
    const watch = { name: "payments", members: [{ vendor: "github", component: "Pages" }, { vendor: "stripe", component: null }] };
    expect(matchesSubscription(filter({}), watch, facts())).toBe(false);
    expect(matchesSubscription(filter({}), watch, facts({ components: ["Pages"] }))).toBe(true);
    expect(matchesSubscription(filter({}), watch, facts({ vendor: "stripe", components: [] }))).toBe(true);
    expect(matchesSubscription(filter({}), watch, facts({ vendor: "slack" }))).toBe(false);
  });

  it("refuses an unknown change kind or key", () => {
    expect(subscriptionFilterSchema.safeParse({ kinds: ["everything"] }).success).toBe(false);
    expect(subscriptionFilterSchema.safeParse({ vendor: ["github"] }).success).toBe(false);
  });
});

describe("a subscription's target", () => {
  it("infers Slack, Discord and email from the target, and webhook otherwise", () => {
    expect(resolveTarget("https://hooks.slack.com/services/T0/B0/x", null).format).toBe("slack");
    expect(resolveTarget("https://discord.com/api/webhooks/1/abc", null).format).toBe("discord");
    expect(resolveTarget("mailto:oncall@example.com", null)).toEqual({ target: "mailto:oncall@example.com", format: "email" });
    expect(resolveTarget("https://example.com/hook", null).format).toBe("webhook");
    expect(resolveTarget("https://example.com/teams", "teams").format).toBe("teams");
  });

  it("refuses targets that are not one address or one http(s) URL, and formats that contradict the target", () => {
    for (const bad of ["mailto:a@example.com,b@example.com", "mailto:x@example.com%0d%0aBcc:y@example.com", "ftp://example.com", "not a url", "https://user:pw@example.com/"]) {
      expect(() => resolveTarget(bad, null), bad).toThrow(SubscriptionTargetError);
    }
    expect(() => resolveTarget("mailto:a@example.com", "slack")).toThrow(/email format/);
    expect(() => resolveTarget("https://example.com", "email")).toThrow(/mailto/);
  });
});
