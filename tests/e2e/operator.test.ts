import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { E2E_OPERATOR_TOKEN } from "@/tests/e2e/support/app-server";
import { startE2eApp } from "@/tests/e2e/support/e2e-app";

// The loopback peer is taken as a proxy, so X-Forwarded-For can name clients other than the browser;
// a failed attempt comes back after an hour, not 10 s, so a slow machine cannot refill the budget mid-test.
const app = startE2eApp("operator", { env: { REDLINE_TRUSTED_PROXIES: "loopback", REDLINE_FAILED_ATTEMPT_INTERVAL_SECONDS: "3600" } });

function post(path: string, client: string, type: string, body: string): Promise<Response> {
  return fetch(`${app().baseUrl}${path}`, { method: "POST", redirect: "manual", headers: { "x-forwarded-for": client, "content-type": type }, body });
}

describe("the operator status page", () => {
  it("shows nothing but a sign-in form without the token, and refuses a wrong one", async () => {
    const page = await app().newPage();
    await app().visit(page, "/operator", "operator-signed-out");
    await expect(page.getByLabel("Operator token").isVisible()).resolves.toBe(true);
    await expect(page.locator("table").count()).resolves.toBe(0);
    await page.getByLabel("Operator token").fill("not-the-operator-token-at-all");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(/signin=failed/);
    await expect(page.locator("form [role=alert]").textContent()).resolves.toContain("not the operator token");
    await expect(page.locator("table").count()).resolves.toBe(0);
  });

  it("makes a client that keeps guessing the token or webhook addresses wait, while another client signs in", async () => {
    const form = "application/x-www-form-urlencoded";
    const signIns: Response[] = [];
    for (let i = 0; i < 8; i += 1) signIns.push(await post("/operator/session", "203.0.113.5", form, `token=wrong-guess-number-${i}`));
    expect(signIns.map((r) => r.status)).toEqual([303, 303, 303, 303, 303, 429, 429, 429]);
    const waiting = signIns[7];
    expect(Number(waiting?.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    await expect(waiting?.text()).resolves.toContain("Too many failed attempts");
    // Waiting means waiting: the right token is not looked at either.
    expect((await post("/operator/session", "203.0.113.5", form, `token=${E2E_OPERATOR_TOKEN}`)).status).toBe(429);
    const other = await post("/operator/session", "198.51.100.7", form, `token=${E2E_OPERATOR_TOKEN}`);
    expect(other.status).toBe(303);
    expect(other.headers.get("location")).toBe("/operator");
    expect(other.headers.get("set-cookie")).toMatch(/^redline_operator=/);

    const pushes: Response[] = [];
    for (let i = 0; i < 8; i += 1) pushes.push(await post(`/api/v1/hooks/guess-${i}/guessed-secret-${i}`, "203.0.113.6", "application/json", "{}"));
    expect(pushes.map((r) => r.status)).toEqual([404, 404, 404, 404, 404, 429, 429, 429]);
    expect(pushes[7]?.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(Number(pushes[7]?.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    // One budget: the client that guessed webhook addresses waits to sign in too.
    expect((await post("/operator/session", "203.0.113.6", form, `token=${E2E_OPERATOR_TOKEN}`)).status).toBe(429);
  });

  it("ends a session on sign-out for every copy of its cookie, and refuses forms posted from another site", async () => {
    const form = "application/x-www-form-urlencoded";
    const signIn = async (client: string) => {
      const answer = await post("/operator/session", client, form, `token=${E2E_OPERATOR_TOKEN}`);
      expect(answer.status).toBe(303);
      return /^redline_operator=([^;]+)/.exec(answer.headers.get("set-cookie") ?? "")?.[1] ?? "";
    };
    const signedIn = async (cookie: string) => (await fetch(`${app().baseUrl}/operator`, { headers: { cookie: `redline_operator=${cookie}` } }).then((r) => r.text())).includes('action="/operator/sign-out"');
    const signOut = (cookie: string, headers: Record<string, string> = {}) =>
      fetch(`${app().baseUrl}/operator/sign-out`, { method: "POST", redirect: "manual", headers: { cookie: `redline_operator=${cookie}`, ...headers } });

    const first = await signIn("198.51.100.21");
    const second = await signIn("198.51.100.22");
    expect(second).not.toBe(first);
    const copied = first;
    expect(await signedIn(copied)).toBe(true);

    // Another site's page cannot sign the operator out (or in): the session holds.
    const forged = await signOut(first, { origin: "https://evil.example" });
    expect(forged.status).toBe(403);
    expect((await signOut(first, { "sec-fetch-site": "cross-site" })).status).toBe(403);
    const crossSignIn = await fetch(`${app().baseUrl}/operator/session`, {
      method: "POST", redirect: "manual", headers: { "x-forwarded-for": "198.51.100.24", "content-type": form, origin: "https://evil.example" }, body: `token=${E2E_OPERATOR_TOKEN}`,
    });
    expect(crossSignIn.status).toBe(403);
    expect(crossSignIn.headers.get("set-cookie")).toBeNull();
    expect(await signedIn(copied)).toBe(true);

    // Signing out from the site's own page ends the session in every browser that holds the cookie.
    const out = await signOut(first, { origin: app().baseUrl });
    expect(out.status).toBe(303);
    expect(await signedIn(copied)).toBe(false);
    expect(await signedIn(second)).toBe(true);
  });

  it("after signing in, shows every vendor's polling with a failing poll's error, and the webhook budgets", async () => {
    process.env.REDLINE_ALLOW_PRIVATE_URLS = "1";
    try {
      await app().redline(["vendors", "add", "--slug", "broken", "--name", "Broken Status", "--platform", "statuspage", "--url", "http://127.0.0.1:9/"]);
      await app().redline(["poll", "--once", "--vendor", "broken", "--quiet"]).catch(() => Buffer.alloc(0));
    } finally {
      delete process.env.REDLINE_ALLOW_PRIVATE_URLS;
    }
    const page = await app().newPage();
    await app().visit(page, "/operator", "operator-sign-in");
    await page.getByLabel("Operator token").fill(E2E_OPERATOR_TOKEN);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(/\/operator$/);
    await app().screenshot(page, "operator-status");
    const broken = page.locator('tr[data-vendor="broken"]:not([data-source])');
    await expect(broken.locator("td").nth(1).textContent()).resolves.toBe("failed");
    await expect(broken.locator("td").nth(2).textContent()).resolves.toMatch(/\S{8,}/);
    await expect(page.locator('tr[data-vendor="acme"]:not([data-source])').count()).resolves.toBe(1);
    const problem = page.locator(".problem-groups > li", { hasText: "Broken Status" });
    await expect(problem.locator("strong").first().textContent()).resolves.toBe("1 vendor");
    // The group names the problem without the vendor's own slug and address.
    await expect(problem.locator("code").first().textContent()).resolves.not.toMatch(/broken|127\.0\.0\.1/);
    await expect(problem.textContent()).resolves.toMatch(/First seen .+, last seen /);
    await expect(page.getByRole("navigation", { name: "Pages of vendors" }).first().textContent()).resolves.toMatch(/^Vendors 1–\d+ of \d+/);
    await expect(page.getByRole("heading", { name: "Webhook budgets" }).isVisible()).resolves.toBe(true);
    // The session cookie is not the token, and the token is nowhere in the page.
    const cookies = await page.context().cookies();
    expect(cookies.map((c) => c.value)).not.toContain(E2E_OPERATOR_TOKEN);
    expect(cookies.find((c) => c.name === "redline_operator")).toMatchObject({ httpOnly: true, sameSite: "Strict" });
    expect(await page.content()).not.toContain(E2E_OPERATOR_TOKEN);
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(/\/operator$/);
    await expect(page.getByLabel("Operator token").isVisible()).resolves.toBe(true);
  });

  it("lists the captures read only in part, with the path of what could not be read, and the re-derivations with their progress", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "redline-operator-"));
    const incident = (id: string, impact: string) => ({ id, name: `Incident ${id}`, status: "investigating", impact, created_at: "2026-03-01T10:00:00Z", incident_updates: [] });
    fs.writeFileSync(path.join(dir, "20260301T100000Z__summary.json"), JSON.stringify({ incidents: [incident("w1", "minor"), incident("w2", "apocalyptic")] }));
    try {
      await app().redline(["import", dir, "--vendor", "partly", "--platform", "statuspage-summary"]);
      await app().redline(["rederive", "--vendor", "partly"]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    const page = await app().newPage();
    await page.goto("/operator");
    await page.getByLabel("Operator token").fill(E2E_OPERATOR_TOKEN);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(/\/operator$/);
    await app().screenshot(page, "operator-rederive-and-warnings");
    const warned = page.locator(".capture-warnings > li", { hasText: "partly" });
    await expect(warned.textContent()).resolves.toMatch(/incidents\[1\]\.impact/);
    const job = page.locator('tr[data-job="done"]', { hasText: "partly" });
    await expect(job.locator("td").nth(0).textContent()).resolves.toBe("requested");
    await expect(job.locator("td").nth(2).textContent()).resolves.toBe("1/1 captures, 2 incidents swapped in");
  });
});
