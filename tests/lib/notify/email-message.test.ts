import { describe, expect, it } from "vitest";
import { renderEmailMessage } from "@/lib/notify/email-message";
import type { NotifiedChange, OutboundMessage } from "@/lib/notify/outbound-message";
import { makeNotifiedChange } from "@/tests/support/fixture-versions";

const UNSUBSCRIBE = "https://redline.test/unsubscribe?s=sub_1&t=abc";
const HOSTILE = `Bcc: victim@example.com\r\nX-Evil: 1\n</script><script>alert(1)</script> ${"x".repeat(100 * 1024)}`;

function message(kind: OutboundMessage["kind"], changes: NotifiedChange[]): OutboundMessage {
  const period = kind === "digest" ? { from: "2026-03-01T10:00:00.000Z", to: "2026-03-01T11:00:00.000Z", every: "hourly" as const } : null;
  return { webhookId: "msg_email", kind, createdAt: "2026-03-01T11:00:00.000Z", period, changes };
}

describe("email messages", () => {
  it("keep CR, LF and markup in vendor text out of the subject and the HTML, and bound both", () => {
    const email = renderEmailMessage(message("single", [makeNotifiedChange({ vendorName: HOSTILE, incident: { title: HOSTILE }, headline: HOSTILE })]), { unsubscribeUrl: UNSUBSCRIBE });
    expect(email.subject).not.toMatch(/[\r\n]/);
    expect(email.subject.length).toBeLessThanOrEqual(200);
    expect(email.html).not.toContain("<script>");
    expect(email.html).toContain("&lt;/script&gt;");
    expect(email.html.length).toBeLessThan(10_000);
    expect(email.text.length).toBeLessThan(10_000);
    expect(Object.values(email.headers).join("")).not.toContain("victim@example.com");
  });

  it("ask for one-click unsubscription with the link, and carry no List-Unsubscribe without one", () => {
    const change = makeNotifiedChange();
    expect(renderEmailMessage(message("single", [change]), { unsubscribeUrl: UNSUBSCRIBE }).headers).toEqual({
      "List-Unsubscribe": `<${UNSUBSCRIBE}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    });
    expect(renderEmailMessage(message("single", [change]), { unsubscribeUrl: null }).headers).toEqual({});
  });

  it("name a digest's period and count in the subject and count the changes it does not list", () => {
    const changes = Array.from({ length: 1_000 }, (_, i) => makeNotifiedChange({ vendor: `v${i % 3}`, vendorName: `Vendor ${i % 3}`, seq: i + 1, incident: { id: `inc${i}` }, headline: HOSTILE }));
    const email = renderEmailMessage(message("digest", changes), { unsubscribeUrl: UNSUBSCRIBE });
    expect(email.subject).toBe("Redline: Hourly digest, 2026-03-01 10:00–11:00 UTC: 1000 changes from 3 vendors");
    expect(email.text).toContain("and 800 more");
    expect(email.html).toContain("and 800 more");
  });
});
