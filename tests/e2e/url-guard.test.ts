import { describe, expect, it } from "vitest";
import { closeStore, openStore } from "@/db/client";
import { savePollState } from "@/db/operations/poll-state";
import { addVendor } from "@/db/settings/vendors";
import { E2E_OPERATOR_TOKEN } from "@/tests/e2e/support/app-server";
import { startE2eApp } from "@/tests/e2e/support/e2e-app";

const app = startE2eApp("url-guard");

function post(path: string, body: unknown): Promise<Response> {
  return fetch(`${app().baseUrl}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${E2E_OPERATOR_TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

async function expectProblem(response: Response, parameter: string, detail: RegExp): Promise<string> {
  const text = await response.text();
  expect(response.status, text).toBe(400);
  expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  expect(JSON.parse(text)).toMatchObject({ parameter, detail: expect.stringMatching(detail) });
  return text;
}

describe("the URL guard through the web server", () => {
  it("refuses vendor URLs and subscription targets that lead to this machine however written, and a vendor URL with a password", async () => {
    for (const url of ["http://localhost.:3999/", "http://foo.localhost./", "http://metadata.google.internal./", "http://[::127.0.0.1]:3999/", "http://[2002:7f00:1::]/"]) {
      await expectProblem(await post("/api/v1/vendors", { slug: "sneaky", name: "Sneaky", platform: "statuspage", url }), "url", /local host name|private, loopback or link-local/);
      await expectProblem(await post("/api/v1/subscriptions", { target: url }), "target", /local host name|private, loopback or link-local/);
    }
    const credentials = await expectProblem(await post("/api/v1/vendors", { slug: "sneaky", name: "Sneaky", platform: "statuspage", url: "http://user:pw-secret@example.com/" }), "url", /no user name or password/);
    expect(credentials).not.toContain("pw-secret");
    expect((await fetch(`${app().baseUrl}/api/v1/vendors/sneaky`)).status).toBe(404);
  });

  it("never shows the user name and password of a vendor URL an archive stored before they were refused, on its pages or in the API", async () => {
    const db = await openStore(app().database, { migrate: false });
    try {
      const secretUrl = "https://ops:pw-secret@status.legacy.example/";
      const vendor = await addVendor(db, { slug: "legacy", name: "Legacy Cloud", platform: "statuspage", url: secretUrl, statusPageUrl: secretUrl }, "user");
      await savePollState(db, {
        vendorId: vendor.id, nextPollAt: "2099-01-01T00:00:00.000Z", lastPollAt: "2026-12-01T00:00:00.000Z", lastOutcome: "failed",
        lastError: `legacy: ${secretUrl}api/v2/summary.json: status.legacy.example answered HTTP 503`, consecutiveFailures: 1, backoffSeconds: 60,
      });
    } finally {
      await closeStore(db);
    }
    const page = await fetch(`${app().baseUrl}/vendors/legacy`);
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain('href="https://status.legacy.example/"');
    expect(html).toContain("https://status.legacy.example/api/v2/summary.json");
    const list = await (await fetch(`${app().baseUrl}/vendors`)).text();
    expect(list).toContain("Legacy Cloud");
    const api = await fetch(`${app().baseUrl}/api/v1/vendors/legacy`);
    const json = await api.text();
    expect(api.status).toBe(200);
    expect(JSON.parse(json)).toMatchObject({ url: "https://status.legacy.example/", statusPage: "https://status.legacy.example/" });
    for (const [where, text] of [["/vendors/legacy", html], ["/vendors", list], ["/api/v1/vendors/legacy", json]] as const) {
      expect(text, where).not.toContain("pw-secret");
      expect(text, where).not.toContain("ops@");
    }
  });
});
