import Parser from "rss-parser";
import { beforeAll, describe, expect, it } from "vitest";
import { findSeriousViolations } from "@/tests/e2e/support/axe";
import { startE2eApp } from "@/tests/e2e/support/e2e-app";
import { findContrastProblems, readOutline } from "@/tests/e2e/support/page-checks";
import { testDatabaseDialect } from "@/tests/support/test-database-settings";

const app = startE2eApp("watchlists");

describe("the watchlists page of an archive without one", () => {
  it("says how to add one, with the command for this archive: a shell without the server's environment would reach another", async () => {
    const page = await app().newPage();
    await app().visit(page, "/watch", "watchlists-empty");
    const db = testDatabaseDialect === "sqlite" ? ` --db ${app().database}` : "";
    await expect(page.locator("main code").textContent()).resolves.toBe(`npm run redline -- watchlists add <name> --vendor <slug>${db}`);
  });
});

describe("watchlist pages, as a reader finds them", () => {
  beforeAll(async () => {
    await app().redline(["watchlists", "add", "team", "--vendor", "acme"]);
  });

  it("the vendors page leads to the watchlists, and each to its page", async () => {
    const page = await app().page();
    await app().visit(page, "/vendors", "vendors-to-watchlists");
    await page.getByRole("link", { name: "Watchlists" }).first().click();
    await page.waitForURL(`${app().baseUrl}/watch`);
    await page.getByRole("link", { name: "team" }).click();
    await page.waitForURL(`${app().baseUrl}/watch/team`);
    await expect(page.locator("h1").textContent()).resolves.toBe("Watchlist team");
  });

  it("shows its vendors with their Now, their latest changes, and announces its feeds and calendar", async () => {
    const page = await app().page();
    await app().visit(page, "/watch/team", "watchlist-page");
    await expect(page.getByRole("table").getByRole("link", { name: "Acme Cloud" }).count()).resolves.toBe(1);
    await expect(page.locator(".change-list li").count()).resolves.toBeGreaterThan(0);
    const links = await page.locator('head link[rel="alternate"]').evaluateAll((nodes) => nodes.map((n) => [n.getAttribute("type") ?? "", (n as HTMLLinkElement).href] as const));
    const found = Object.fromEntries(links);
    expect(found["application/rss+xml"]).toBe(`${app().baseUrl}/watch/team/feed.rss`);
    const feed = await new Parser().parseString(await (await fetch(found["application/rss+xml"] ?? "")).text());
    expect(feed.items.length).toBeGreaterThan(0);
    expect(feed.items.every((i) => i.title?.startsWith("Acme Cloud: "))).toBe(true);
    await expect(page.getByRole("link", { name: "Maintenance calendar (iCalendar)" }).getAttribute("href")).resolves.toBe("/watch/team/maintenance.ics");
  });

  it("answers an unknown watchlist with the site's 404 page", async () => {
    const page = await app().page();
    await app().visit(page, "/watch/nobody", "watchlist-unknown", 404);
    await expect(page.locator("h1").textContent()).resolves.toBe("Not found");
    await expect(page.getByRole("navigation", { name: "Main" }).count()).resolves.toBe(1);
  });

  it.each([["watchlists", "/watch"], ["watchlist", "/watch/team"]])("%s has one h1, one main landmark, no skipped heading level, no serious axe violation and AA contrast", async (name, path) => {
    const page = await app().page();
    await app().visit(page, path, `a11y-${name}`);
    const outline = await readOutline(page);
    expect([outline.h1Count, outline.mainCount, outline.skips]).toEqual([1, 1, []]);
    expect(await findSeriousViolations(page)).toEqual([]);
    expect(await findContrastProblems(page)).toEqual([]);
  });
});
