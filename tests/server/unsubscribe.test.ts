import { describe, expect, it } from "vitest";
import { addSubscription, getSubscription } from "@/db/notifications/subscriptions";
import { subscriptionFilterSchema } from "@/lib/notify/subscription-filter";
import { unsubscribeUrl } from "@/lib/notify/unsubscribe-token";
import { unsubscribeRoute } from "@/server/notify/unsubscribe-route";
import { freshDatabase } from "@/tests/support/database";

async function setUp() {
  const db = await freshDatabase();
  const sub = await addSubscription(db, { target: "mailto:oncall@example.com", format: "email", filter: subscriptionFilterSchema.parse({}), watchlist: null, digest: null });
  return { db, sub, route: unsubscribeRoute(() => db), link: unsubscribeUrl("http://redline.test", sub.id, sub.secret) };
}

describe("an e-mail's unsubscribe link", () => {
  it("asks first on GET, so a scanner following links unsubscribes no one, then disables on POST", async () => {
    const { db, sub, route, link } = await setUp();
    const asked = await route.GET(new Request(link));
    expect(asked.status).toBe(200);
    const html = await asked.text();
    expect(html).toContain("oncall@example.com");
    expect(html).toContain('<form method="post"');
    expect((await getSubscription(db, sub.id))?.status).toBe("active");
    const done = await route.POST(new Request(link, { method: "POST", body: "List-Unsubscribe=One-Click", headers: { "content-type": "application/x-www-form-urlencoded" } }));
    expect(done.status).toBe(200);
    expect(await getSubscription(db, sub.id)).toMatchObject({ status: "disabled", disabledReason: expect.stringMatching(/unsubscribed/) });
  });

  it("refuses a wrong token exactly as an unknown subscription, and changes nothing", async () => {
    const { db, sub, route, link } = await setUp();
    const wrong = link.replace(/t=[^&]+/, "t=forged");
    const unknown = link.replace(/s=[^&]+/, "s=sub_nobody");
    const answers = [await route.POST(new Request(wrong, { method: "POST" })), await route.POST(new Request(unknown, { method: "POST" })), await route.GET(new Request(wrong))];
    expect(answers.map((a) => a.status)).toEqual([403, 403, 403]);
    const [a, b] = await Promise.all(answers.slice(0, 2).map((r) => r.text()));
    expect(a).toBe(b);
    expect(a).not.toContain("oncall");
    expect((await getSubscription(db, sub.id))?.status).toBe("active");
  });
});
