import { describe, expect, it } from "vitest";
import { renderDiscordMessage, renderSlackMessage, renderTeamsMessage } from "@/lib/notify/chat-messages";
import { renderEmailMessage } from "@/lib/notify/email-message";
import { checkSubscriptionRequest, SubscriptionInputError, subscriptionRequestSchema } from "@/lib/notify/subscription-input";
import { matchesSubscription, subscriptionFilterSchema } from "@/lib/notify/subscription-filter";
import { quietDegradationFacts } from "@/lib/notify/select-notifications";
import type { NotifiedQuietChange, OutboundMessage } from "@/lib/notify/outbound-message";
import { webhookBody } from "@/notify/webhook-sender";
import { makeNotifiedChange } from "@/tests/support/fixture-versions";

const HOSTILE = `<!channel> @everyone </script><b>x</b> *bold* [link](https://evil.example) \r\nBcc: victim@example.com ${"A".repeat(10_000)}`;
const LINK = "http://redline.test/vendors/calm/status?at=2026-03-01T10:10:00.000Z";

function quietChange(name = "REST API", vendorName = "Calm Cloud"): NotifiedQuietChange {
  return {
    vendorName,
    quietDegradation: {
      vendor: "calm", vendorName, from: "2026-03-01T10:10:00.000Z", until: null, durationSeconds: null,
      components: [
        { id: "api", name, group: "Core platform", links: { html: "http://redline.test/vendors/calm/components/api" } },
        { id: "dns", name: "DNS", group: null, links: { html: "http://redline.test/vendors/calm/components/dns" } },
      ],
      groups: ["Core platform"],
      links: { html: LINK, vendor: "http://redline.test/api/v1/vendors/calm" },
    },
  };
}

function message(kind: OutboundMessage["kind"], changes: OutboundMessage["changes"]): OutboundMessage {
  return { webhookId: "msg_test", kind, createdAt: "2026-03-01T11:00:00.000Z", period: null, changes };
}

describe("a quiet degradation in a message", () => {
  it("says the vendor, that it is a quiet degradation, its components and since when, and links the page as it was", () => {
    const single = message("single", [quietChange()]);
    const slack = JSON.stringify(renderSlackMessage(single));
    for (const text of ["Calm Cloud", "Quiet degradation", "REST API and DNS were degraded or out", "since 2026-03-01 10:10 UTC", "ongoing", LINK]) expect(slack).toContain(text);
    expect((renderDiscordMessage(single) as { embeds: Array<{ url: string }> }).embeds[0]?.url).toBe(LINK);
    const teams = JSON.stringify(renderTeamsMessage(single));
    expect(teams).toContain('"title":"Components"');
    const mail = renderEmailMessage(single, { unsubscribeUrl: null });
    expect(mail.subject).toBe("Calm Cloud: Quiet degradation: REST API and DNS were degraded or out while Calm Cloud had no incident open, since 2026-03-01 10:10 UTC (ongoing when last observed).");
    expect(mail.text).toContain(LINK);
  });

  it("goes to a webhook as quiet-degradation.started, and beside versions in a batch under quietDegradations", () => {
    const single = JSON.parse(webhookBody(message("single", [quietChange()]))) as { type: string; timestamp: string; data: { from: string } };
    expect(single).toMatchObject({ type: "quiet-degradation.started", timestamp: "2026-03-01T10:10:00.000Z", data: { from: "2026-03-01T10:10:00.000Z" } });
    const batch = JSON.parse(webhookBody(message("batch", [makeNotifiedChange(), quietChange()]))) as { type: string; data: { changes: unknown[]; quietDegradations: Array<{ vendor: string }> } };
    expect(batch.type).toBe("incident.changed.batch");
    expect(batch.data.changes).toHaveLength(1);
    expect(batch.data.quietDegradations.map((q) => q.vendor)).toEqual(["calm"]);
    expect(JSON.parse(webhookBody(message("batch", [makeNotifiedChange()]))).data).not.toHaveProperty("quietDegradations");
  });

  it("keeps hostile component and vendor names inert and bounded", () => {
    const single = message("single", [quietChange(HOSTILE, "Evil @everyone <!here>")]);
    const slack = JSON.stringify(renderSlackMessage(single));
    expect(slack).not.toMatch(/<!channel>|<!here>/);
    expect(slack.length).toBeLessThan(5_000);
    expect(JSON.stringify(renderDiscordMessage(single))).not.toMatch(/@everyone/);
    const mail = renderEmailMessage(single, { unsubscribeUrl: null });
    expect(mail.subject).not.toMatch(/[\r\n]/);
    expect(mail.html).not.toContain("</script><b>");
  });
});

describe("subscribing to quiet degradations", () => {
  const check = (body: object) => checkSubscriptionRequest(subscriptionRequestSchema.parse({ target: "https://hooks.example.com/x", ...body }));

  it("takes the kind quiet-degradation and groups with it alone", () => {
    expect(check({ kinds: ["quiet-degradation"], groups: ["Europe", "Europe"] }).filter).toMatchObject({ kinds: ["quiet-degradation"], groups: ["Europe"] });
    expect(() => check({ groups: ["Europe"] })).toThrow(SubscriptionInputError);
    expect(() => check({ kinds: ["quiet-degradation", "incident-new"], groups: ["Europe"] })).toThrow(/a group narrows quiet degradations only/);
  });

  it("matches a quiet degradation by vendor, kind, component and group, any case; a minimum impact never lets one through", () => {
    const facts = quietDegradationFacts("calm", [{ id: "fra", name: "Frankfurt", group: "Europe" }]);
    const matches = (filter: object) => matchesSubscription(subscriptionFilterSchema.parse(filter), null, facts);
    expect(matches({})).toBe(true);
    expect(matches({ vendors: ["calm"], kinds: ["quiet-degradation"], groups: ["EUROPE"] })).toBe(true);
    expect(matches({ components: ["frankfurt"] })).toBe(true);
    expect(matches({ groups: ["Asia"] })).toBe(false);
    expect(matches({ kinds: ["incident-new"] })).toBe(false);
    expect(matches({ minImpact: "minor" })).toBe(false);
    expect(matchesSubscription(subscriptionFilterSchema.parse({}), { name: "eu", members: [{ vendor: "calm", component: "Frankfurt" }] }, facts)).toBe(true);
    expect(matchesSubscription(subscriptionFilterSchema.parse({}), { name: "eu", members: [{ vendor: "calm", component: "Paris" }] }, facts)).toBe(false);
  });
});
