import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { RedlineDb } from "@/db/client";
import { savePollState } from "@/db/operations/poll-state";
import { addVendor, ensureVendor } from "@/db/settings/vendors";
import { type Api, createApi } from "@/server/api/api";
import { countRows, freshDatabase } from "@/tests/support/database";

const ORIGIN = "http://redline.test";
const TOKEN = "operator-token-for-tests-0123456789";
const auth = { authorization: `Bearer ${TOKEN}` };
let db: RedlineDb;
let api: Api;

beforeEach(async () => {
  db = await freshDatabase();
  api = createApi(() => db);
  await ensureVendor(db, { slug: "acme", name: "Acme Cloud", platform: "statuspage-summary" });
  vi.stubEnv("REDLINE_OPERATOR_TOKEN", TOKEN);
  vi.stubEnv("REDLINE_ALLOW_PRIVATE_URLS", "0");
});
afterEach(() => vi.unstubAllEnvs());

async function call(operation: keyof Api, options: { params?: Record<string, string>; method?: string; body?: unknown } = {}) {
  const request = new Request(`${ORIGIN}/api/v1/x`, {
    method: options.method ?? "GET",
    headers: { ...(options.body === undefined ? {} : { "content-type": "application/json" }), ...auth },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const handler = api[operation] as (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;
  return handler(request, { params: Promise.resolve(options.params ?? {}) });
}

/** The addresses issue 34 saw accepted: each names this machine or its cloud's metadata service. */
const PRIVATE_IN_DISGUISE = [
  "http://localhost.:3999/",
  "http://foo.localhost./",
  "http://metadata.google.internal./computeMetadata/v1/",
  "http://[::127.0.0.1]:3999/",
  "http://[2002:7f00:1::]/",
];

async function expectProblem(response: Response, parameter: string, detail: RegExp): Promise<void> {
  expect(response.status).toBe(400);
  expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  expect(await response.json()).toMatchObject({ status: 400, parameter, detail: expect.stringMatching(detail) });
}

describe("the API's URL guard", () => {
  it("refuses a mailto: target with a malformed percent escape with a 400 problem, not a 500", async () => {
    const response = await call("addSubscription", { method: "POST", body: { target: "mailto:%E0%A4%A", vendors: ["acme"] } });
    await expectProblem(response, "target", /malformed percent escape/);
    expect(await countRows(db, "subscriptions")).toBe(0);
  });

  it.each(PRIVATE_IN_DISGUISE)("refuses %s as a vendor URL with a problem naming the url, adding nothing", async (url) => {
    const response = await call("addVendor", { method: "POST", body: { slug: "sneaky", name: "Sneaky", platform: "statuspage", url } });
    await expectProblem(response, "url", /local host name|private, loopback or link-local/);
    expect(await countRows(db, "vendors")).toBe(1);
  });

  it.each(PRIVATE_IN_DISGUISE)("refuses %s as a subscription target with a problem naming the target, adding nothing", async (url) => {
    const response = await call("addSubscription", { method: "POST", body: { target: url, vendors: ["acme"] } });
    await expectProblem(response, "target", /local host name|private, loopback or link-local/);
    expect(await countRows(db, "subscriptions")).toBe(0);
  });

  it("refuses a vendor URL with a user name and password without repeating the password, and adds the same URL without them", async () => {
    const refused = await call("addVendor", { method: "POST", body: { slug: "newco", name: "NewCo", platform: "statuspage", url: "http://user:pw-secret@example.com/" } });
    expect(refused.status).toBe(400);
    const text = await refused.text();
    expect(JSON.parse(text)).toMatchObject({ parameter: "url", detail: expect.stringMatching(/no user name or password/) });
    expect(text).not.toContain("pw-secret");
    expect(await countRows(db, "vendors")).toBe(1);
    const added = await call("addVendor", { method: "POST", body: { slug: "newco", name: "NewCo", platform: "statuspage", url: "http://example.com./" } });
    expect(added.status).toBe(201);
  });

  it("never shows the user name and password of a vendor URL an archive stored before they were refused", async () => {
    const vendor = await addVendor(db, { slug: "legacy", name: "Legacy", platform: "statuspage", url: "https://ops:pw-secret@status.example.com/", statusPageUrl: "https://ops:pw-secret@status.example.com/" }, "user");
    await savePollState(db, {
      vendorId: vendor.id, nextPollAt: "2026-12-01T00:01:00.000Z", lastPollAt: "2026-12-01T00:00:00.000Z", lastOutcome: "failed",
      lastError: "legacy: https://ops:pw-secret@status.example.com/api/v2/summary.json: status.example.com answered HTTP 503", consecutiveFailures: 1, backoffSeconds: 60,
    });
    const one = await call("getVendor", { params: { slug: "legacy" } });
    expect(one.status).toBe(200);
    const text = await one.text();
    expect(text).not.toContain("pw-secret");
    expect(text).not.toContain("ops@");
    expect(JSON.parse(text)).toMatchObject({
      url: "https://status.example.com/",
      statusPage: "https://status.example.com/",
      poll: { lastError: "legacy: https://status.example.com/api/v2/summary.json: status.example.com answered HTTP 503" },
    });
    const list = await (await call("listVendors")).text();
    expect(list).toContain("https://status.example.com/");
    expect(list).not.toContain("pw-secret");
  });
});
