import { describe, expect, it } from "vitest";
import { startE2eApp } from "@/tests/e2e/support/e2e-app";

const app = startE2eApp("no-js");

const INCIDENT = "/vendors/acme/incidents/acmeapi00001";

describe("the archive without JavaScript", () => {
  it("serves the incident page complete from the server: the same text as with JavaScript", async () => {
    const withScript = await app().page();
    await app().visit(withScript, INCIDENT, "incident-with-js");
    const withoutScript = await app().page({ javaScriptEnabled: false });
    await app().visit(withoutScript, INCIDENT, "incident");

    const text = await withoutScript.locator("main").innerText();
    expect(text).toContain("Elevated API error rates");
    expect(text).toContain("History of this incident");
    expect(text).toContain("We are investigating slightly elevated error rates for a small number of customers.");
    expect(await withoutScript.locator("ol.history > li").count()).toBe(5);
    expect(text).toBe(await withScript.locator("main").innerText());
  });

  it("filters changes with the plain GET form", async () => {
    const page = await app().page({ javaScriptEnabled: false });
    await app().visit(page, "/", "home");
    await page.locator("summary", { hasText: "Kinds of change" }).click();
    await page.getByLabel("Postmortem published").check();
    await page.getByLabel("Postmortem edited").check();
    await page.getByRole("button", { name: "Show" }).click();
    await page.waitForURL(/kind=postmortem-published&kind=postmortem-edited/);
    await app().screenshot(page, "home-filtered");

    const rows = await page.locator("ol.change-list > li").all();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      const badges = await row.locator(".badge").allTextContents();
      expect(badges.some((b) => b === "Postmortem published" || b === "Postmortem edited"), badges.join(", ")).toBe(true);
    }
    await expect(page.locator("ol.change-list").textContent()).resolves.toContain("Delayed webhook deliveries");
  });

  it("compares two versions and searches with plain GET forms", async () => {
    const page = await app().page({ javaScriptEnabled: false });
    await app().visit(page, `${INCIDENT}/versions/5`, "change");
    const compare = page.getByRole("form", { name: "Compare two versions" });
    await compare.getByLabel("Compare version").selectOption("2");
    await compare.getByLabel("with").selectOption("5");
    await compare.getByRole("button", { name: "Compare" }).click();
    await page.waitForURL(/\/compare\?from=2&to=5$/);
    await expect(page.locator("h1").textContent()).resolves.toBe("Acme Cloud: compare versions 2 and 5: Elevated API error rates");

    await page.getByRole("link", { name: "Search" }).click();
    await page.waitForURL(/\/search$/);
    await page.getByLabel("Words").fill("webhook");
    await page.getByRole("button", { name: "Search" }).click();
    await page.waitForURL(/\/search\?q=webhook/);
    await app().screenshot(page, "search");
    await expect(page.locator("ol.search-results").textContent()).resolves.toContain("Delayed webhook deliveries");
  });
});
