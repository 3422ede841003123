import { describe, expect, it } from "vitest";
import { renderDiscordMessage, renderSlackMessage, renderTeamsMessage } from "@/lib/notify/chat-messages";
import { renderEmailMessage } from "@/lib/notify/email-message";
import type { OutboundMessage } from "@/lib/notify/outbound-message";
import { makeIncident, makeUpdate } from "@/tests/support/incidents";
import { notifiedChanges } from "@/tests/support/outbound-messages";

const HOSTILE = `<!channel> @everyone @here </script><b>x</b> *bold* [link](https://evil.example) \r\nBcc: victim@example.com ${"A".repeat(100_000)}`;

function message(kind: OutboundMessage["kind"], changes: OutboundMessage["changes"]): OutboundMessage {
  return { webhookId: "msg_test", kind, createdAt: "2026-03-01T11:00:00.000Z", period: kind === "digest" ? { from: "2026-03-01T10:00:00.000Z", to: "2026-03-01T11:00:00.000Z", every: "hourly" } : null, changes };
}

describe("chat and e-mail messages", () => {
  it("say the vendor, the kind, the headline, impact and state, and link the change page", async () => {
    const [change] = await notifiedChanges([[makeIncident({ impact: "major", title: "Elevated API errors" })]]);
    if (!change) throw new Error("no change");
    const single = message("single", [change]);
    const slack = JSON.stringify(renderSlackMessage(single));
    for (const text of ["Acme Cloud", "New incident", "Major", "open", "http://redline.test/vendors/acme/incidents/inc1/versions/1"]) expect(slack).toContain(text);
    const discord = renderDiscordMessage(single) as { embeds: Array<{ title: string; url: string }>; allowed_mentions: unknown };
    expect(discord.embeds[0]?.url).toBe("http://redline.test/vendors/acme/incidents/inc1/versions/1");
    expect(discord.allowed_mentions).toEqual({ parse: [] });
    const teams = renderTeamsMessage(single) as { attachments: Array<{ contentType: string; content: { type: string; actions: Array<{ url: string }> } }> };
    expect(teams.attachments[0]?.contentType).toBe("application/vnd.microsoft.card.adaptive");
    expect(teams.attachments[0]?.content.actions[0]?.url).toBe("http://redline.test/vendors/acme/incidents/inc1/versions/1");
  });

  it("summarize a batch or digest in one message: the count, the first few, and how many more", async () => {
    const changes = await notifiedChanges([Array.from({ length: 12 }, (_, i) => makeIncident({ id: `i${i}`, title: `Outage ${i}` }))]);
    expect(changes).toHaveLength(12);
    const slack = JSON.stringify(renderSlackMessage(message("batch", changes)));
    expect(slack).toContain("12 changes from 1 vendor");
    expect(slack).toContain("and 7 more");
    const digest = renderEmailMessage(message("digest", changes), { unsubscribeUrl: null });
    expect(digest.subject).toBe("Redline: Hourly digest, 2026-03-01 10:00–11:00 UTC: 12 changes from 1 vendor");
    expect(digest.text.match(/Outage \d+/g)).toHaveLength(12);
  });

  it("keep hostile vendor text inert and bounded in every format", async () => {
    const [change] = await notifiedChanges([[makeIncident({ title: HOSTILE, updates: [makeUpdate({ body: HOSTILE })] })]], `Evil @everyone <!here>`);
    if (!change) throw new Error("no change");
    const single = message("single", [change]);
    const slack = JSON.stringify(renderSlackMessage(single));
    expect(slack).not.toMatch(/<!channel>|<!here>/);
    expect(slack.length).toBeLessThan(5_000);
    const discord = renderDiscordMessage(single) as { embeds: Array<{ title: string; description: string }> };
    const embed = discord.embeds[0];
    expect(embed?.title.length).toBeLessThanOrEqual(256);
    expect(embed?.description.length).toBeLessThanOrEqual(4_096);
    expect(JSON.stringify(discord)).not.toMatch(/@everyone|@here/);
    const teams = JSON.stringify(renderTeamsMessage(single));
    expect(teams.length).toBeLessThan(5_000);
    const mail = renderEmailMessage(single, { unsubscribeUrl: "http://redline.test/unsubscribe?s=x&t=y" });
    expect(mail.subject).not.toMatch(/[\r\n]/);
    expect(mail.subject.length).toBeLessThanOrEqual(200);
    expect(mail.html).not.toContain("</script><b>");
    expect(Object.values(mail.headers).join("")).not.toContain("victim");
  });
});
