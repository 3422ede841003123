import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { E2E_OPERATOR_TOKEN } from "@/tests/e2e/support/app-server";
import { startE2eApp } from "@/tests/e2e/support/e2e-app";

const app = startE2eApp("operator");

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

  it("after signing in, shows each polling problem once with the vendors that have it, every vendor's polling with its error, and the webhook budgets", async () => {
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
    // Each problem once, without the vendor's own address, naming who has it.
    const problem = page.locator('.poll-problems > li[data-problem="failed"]', { hasText: "Broken Status" });
    await expect(problem.locator("code").textContent()).resolves.toMatch(/‹host›/);
    await expect(problem.textContent()).resolves.not.toContain("127.0.0.1");
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
