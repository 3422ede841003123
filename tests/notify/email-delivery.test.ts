import type { AddressInfo } from "node:net";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";
import { afterEach, describe, expect, it } from "vitest";
import { addSubscription } from "@/db/notifications/subscriptions";
import { ensureVendor } from "@/db/settings/vendors";
import { subscriptionFilterSchema } from "@/lib/notify/subscription-filter";
import { isUnsubscribeToken } from "@/lib/notify/unsubscribe-token";
import { runDeliveryRound } from "@/notify/deliver";
import { createSenders } from "@/notify/senders";
import { createJsonPoster } from "@/scrapers/http/http-post";
import { ingestSnapshot } from "@/scrapers/ingest/ingest-snapshot";
import { freshDatabase } from "@/tests/support/database";
import { makeIncident } from "@/tests/support/incidents";
import { testClock, testNotifyDeps } from "@/tests/support/notify-deps";
import { makeTestPlatform, snapshotBody } from "@/tests/support/test-platform";

const platform = makeTestPlatform({ kind: "recent", limit: 100 });
let server: SMTPServer | null = null;
afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = null;
});

/** A local SMTP server that keeps what it is sent; `reply` makes it refuse with that code. */
async function startSmtp(reply: { code: number } | null = null): Promise<{ url: string; mails: ParsedMail[] }> {
  const mails: ParsedMail[] = [];
  server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          if (reply) {
            callback(Object.assign(new Error(`refused with ${reply.code}`), { responseCode: reply.code }));
            return;
          }
          mails.push(mail);
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, mails };
}

async function setUp(digest: "hourly" | null) {
  const db = await freshDatabase();
  const vendor = await ensureVendor(db, { slug: "acme", name: "Acme Cloud", platform: platform.name });
  const sub = await addSubscription(db, { target: "mailto:oncall@example.com", format: "email", filter: subscriptionFilterSchema.parse({}), watchlist: null, digest });
  let observed = Date.parse("2026-03-01T10:00:00.000Z");
  const capture = (incidents: ReturnType<typeof makeIncident>[]) => {
    observed += 60_000;
    return ingestSnapshot(db, { vendor, platform, source: "incidents.json", observedAt: new Date(observed).toISOString(), body: snapshotBody(incidents), notify: true });
  };
  return { db, sub, capture };
}

describe("e-mail delivery", () => {
  it("sends one multipart message per change, with a working List-Unsubscribe", async () => {
    const smtp = await startSmtp();
    const { db, sub, capture } = await setUp(null);
    await capture([makeIncident({ title: "Elevated <b>API</b> errors" })]);
    const clock = testClock();
    expect(await runDeliveryRound(testNotifyDeps(db, clock, {}, smtp.url))).toMatchObject({ delivered: 1 });
    expect(smtp.mails).toHaveLength(1);
    const [mail] = smtp.mails;
    expect(mail?.to && !Array.isArray(mail.to) ? mail.to.text : "").toBe("oncall@example.com");
    expect(mail?.subject).toMatch(/^Acme Cloud: New incident: /);
    expect(mail?.text).toContain("http://redline.test/vendors/acme/incidents/inc1/versions/1");
    expect(mail?.html).toContain("Elevated &lt;b&gt;API&lt;/b&gt; errors");
    expect(mail?.html).not.toContain("<b>API</b>");
    const raw = (key: string) => mail?.headerLines.find((h) => h.key === key)?.line ?? "";
    const unsubscribe = raw("list-unsubscribe");
    const link = /<(http[^>]+)>/.exec(unsubscribe)?.[1] ?? "";
    const url = new URL(link);
    expect(url.searchParams.get("s")).toBe(sub.id);
    expect(isUnsubscribeToken(sub.id, sub.secret, url.searchParams.get("t") ?? "")).toBe(true);
    expect(raw("list-unsubscribe-post")).toBe("List-Unsubscribe-Post: List-Unsubscribe=One-Click");
  });

  it("carries no List-Unsubscribe when no public address is configured, rather than a link to localhost", async () => {
    const smtp = await startSmtp();
    const { db, capture } = await setUp(null);
    await capture([makeIncident()]);
    const post = createJsonPoster({ allowPrivate: true, connectTimeoutMs: 60_000, responseTimeoutMs: 60_000, userAgent: "Redline/test" });
    const senders = createSenders(post, { smtpUrl: smtp.url, from: "Redline <redline@test.example>", origin: null, connectTimeoutMs: 60_000, responseTimeoutMs: 60_000 });
    expect(await runDeliveryRound(testNotifyDeps(db, testClock(), { senders }))).toMatchObject({ delivered: 1 });
    expect(smtp.mails).toHaveLength(1);
    expect(smtp.mails[0]?.headerLines.map((h) => h.key)).not.toContain("list-unsubscribe");
    expect(smtp.mails[0]?.text).not.toContain("/unsubscribe");
  });

  it("sends a digest once its hour has ended, all the hour's changes in one message", async () => {
    const smtp = await startSmtp();
    const { db, capture } = await setUp("hourly");
    await capture([makeIncident()]);
    await capture([makeIncident({ status: "identified" })]);
    await capture([makeIncident({ status: "identified" }), makeIncident({ id: "inc2", title: "Slow dashboard" })]);
    const clock = testClock();
    expect(await runDeliveryRound(testNotifyDeps(db, clock, {}, smtp.url))).toMatchObject({ formed: 0, attempted: 0 });
    const nextHour = new Date(clock.ms());
    nextHour.setUTCHours(nextHour.getUTCHours() + 1, 0, 1, 0);
    clock.set(nextHour.getTime());
    expect(await runDeliveryRound(testNotifyDeps(db, clock, {}, smtp.url))).toMatchObject({ formed: 1, delivered: 1 });
    expect(await runDeliveryRound(testNotifyDeps(db, clock, {}, smtp.url))).toMatchObject({ formed: 0, attempted: 0 });
    expect(smtp.mails).toHaveLength(1);
    const [mail] = smtp.mails;
    expect(mail?.subject).toMatch(/^Redline: Hourly digest, .* UTC: 3 changes from 1 vendor$/);
    expect(mail?.text).toContain("Slow dashboard");
    expect(mail?.html).toContain("Slow dashboard");
  });

  it("retries a 4xx reply and gives up a message on a 5xx one", async () => {
    for (const [code, outcome] of [[451, "retry"], [550, "failed"]] as const) {
      const smtp = await startSmtp({ code });
      const { db, sub, capture } = await setUp(null);
      await capture([makeIncident()]);
      await runDeliveryRound(testNotifyDeps(db, testClock(), {}, smtp.url));
      const row = await db.connection.prepare("SELECT outcome, status_code AS code FROM delivery_attempts WHERE subscription_id = ?").get(sub.id);
      expect(row).toEqual({ outcome, code });
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
      server = null;
    }
  });
});
