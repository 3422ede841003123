import { describe, expect, it } from "vitest";
import { findSeriousViolations } from "@/tests/e2e/support/axe";
import { startE2eApp } from "@/tests/e2e/support/e2e-app";
import { horizontalOverflow, readOutline } from "@/tests/e2e/support/page-checks";

const app = startE2eApp("components");

const ACTIONS = "/vendors/relay/components/rlyact000001";
/** The fixture's day: the default period (the last 90 days) holds nothing of it. */
const THAT_DAY = `${ACTIONS}?since=2026-03-09&until=2026-03-09`;
const INCIDENT = "/vendors/relay/incidents/rlyinc000001";

const text = (s: string | null) => (s ?? "").replace(/\s+/g, " ").trim();

describe("a component's page, as a reader meets it", () => {
  it("shows the component's group, its state now by the honest rules, the time in each state of the time watched, its timeline and the incidents that named it", async () => {
    const page = await app().page();
    await app().visit(page, THAT_DAY, "actions-that-day");
    expect(await page.locator("h1").textContent()).toBe("Actions");
    expect(await page.title()).toBe("Relay Networks: Actions · Redline");
    const nowFact = text(await page.locator("dl.facts .fact-now dd").innerText());
    // An imported vendor's capture of March says nothing of today.
    expect(nowFact).toMatch(/^unknown since 2026-03-09 11:00 UTC \(\d+ days ago\) not polled: as of the last imported capture Last observed: Operational$/);
    await expect(page.locator("dl.facts").getByRole("link", { name: "Core" }).getAttribute("href")).resolves.toBe("/vendors/relay/components/rlygrp000001");

    const shares = page.getByRole("table", { name: /Time Actions spent in each state/ });
    expect(await shares.locator("tbody tr").evaluateAll((rows) => rows.map((r) => (r.textContent ?? "").replace(/\s+/g, " ").trim()))).toEqual([
      "Degraded performance35 min70%",
      "Operational15 min30%",
    ]);
    const unobserved = text(await page.locator(".not-observed-time").textContent());
    expect(unobserved).toContain("Not observed 23 h 10 min (97% of the period)");
    expect(unobserved).toContain("10 min around failed captures");

    const timeline = page.getByRole("table", { name: "Each state of Actions, newest first" });
    expect(await timeline.locator("tbody tr").evaluateAll((rows) => rows.map((r) => Array.from(r.querySelectorAll("td")).map((td) => (td.textContent ?? "").replace(/\s+/g, " ").trim())))).toEqual([
      ["Operational", "operational", "2026-03-09 10:50 UTC", "not known after 2026-03-09 11:00 UTC", "at least 10 min"],
      ["Degraded performance", "degraded_performance", "2026-03-09 10:05 UTC", "2026-03-09 10:50 UTC", "45 min"],
      ["Operational", "operational", "2026-03-09 10:00 UTC", "2026-03-09 10:05 UTC", "5 min"],
    ]);
    await page.getByRole("link", { name: "Delayed Actions runs" }).click();
    await page.waitForURL(new RegExp(`${INCIDENT}$`));
  });

  it("draws the last 90 days from what Redline observed, each day with a text alternative, and days not watched as not observed, never operational", async () => {
    const page = await app().page();
    await app().visit(page, ACTIONS, "actions-strip");
    const cells = await page.getByRole("list", { name: "Actions, the last 90 days, oldest first" }).locator("li").allTextContents();
    expect(cells).toHaveLength(90);
    for (const cell of cells) expect(cell).toMatch(/^\d{4}-\d{2}-\d{2}: Not observed$/);
    expect(text(await page.locator("#strip-heading + p").textContent())).toContain("Observed on 0 of 90 days.");
  });

  it("chooses the period with the form, is kept by the page cache, and answers a bad period with a 400 page and an unknown component with a 404", async () => {
    const page = await app().page();
    await app().visit(page, ACTIONS, "actions-form");
    await page.getByRole("combobox", { name: /^Last/ }).selectOption("365");
    await page.getByRole("button", { name: "Show" }).click();
    await page.waitForURL(/[?&]days=365/);
    expect(await page.locator("#shares-heading").textContent()).toBe("Time in each state, the last 365 days");
    expect(await page.locator("#timeline-heading").textContent()).toBe("State timeline, the last 365 days");
    const bad = await fetch(`${app().baseUrl}${ACTIONS}?days=7`);
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("days: expected 30, 90 or 365");
    const first = await fetch(`${app().baseUrl}${THAT_DAY}`);
    const again = await fetch(`${app().baseUrl}${THAT_DAY}`);
    expect([first.status, again.status, again.headers.get("x-redline-cache")]).toEqual([200, 200, "hit"]);
    expect(await again.text()).toContain("<h1>Actions</h1>");
    await first.arrayBuffer();
    const missing = await fetch(`${app().baseUrl}/vendors/relay/components/nope`);
    expect(missing.status).toBe(404);
    expect((await fetch(`${app().baseUrl}/vendors/nobody/components/rlyact000001`)).status).toBe(404);
  });

  it("lists a group's members, keeps a rename and a removal in the history, and addresses a key with a slash", async () => {
    const page = await app().page();
    await app().visit(page, "/vendors/relay/components/rlygrp000001", "group");
    expect(await page.getByRole("heading", { name: "Components in this group" }).count()).toBe(1);
    expect(await page.locator(".member-list a").allTextContents()).toEqual(["Actions", "Public API"]);
    await app().visit(page, "/vendors/relay/components/rlyapi000001?since=2026-03-09&until=2026-03-09", "renamed");
    expect(await page.locator("h1").textContent()).toBe("Public API");
    expect(await page.getByRole("table", { name: /Each state of Public API/ }).locator("tbody tr").nth(1).textContent()).toContain("listed as API");
    await app().visit(page, "/vendors/relay/components/rlyweb000001?since=2026-03-09&until=2026-03-09", "removed");
    const removed = page.getByRole("table", { name: /Each state of Website/ }).locator("tbody tr").first().locator("td");
    expect((await removed.allTextContents()).map(text)).toEqual(["Not listed by the vendor", "—", "2026-03-09 11:00 UTC", "not known after 2026-03-09 11:00 UTC", "not known"]);
    await app().visit(page, "/vendors/chatter/components/Login%2FSSO?since=2026-03-10&until=2026-03-10", "inferred");
    expect(await page.locator("h1").textContent()).toBe("Login/SSO");
    expect(text(await page.locator("main").textContent())).toContain("named only inside incidents: its states are inferred");
    expect(await page.getByRole("table", { name: /Each state of Login\/SSO/ }).locator("tbody tr").last().textContent()).toContain("Degraded performance (inferred)");
    for (const [segment, name] of [["Apps%20%26%20integrations", "Apps & integrations"], ["Files%2050%25", "Files 50%"]]) {
      await app().visit(page, `/vendors/chatter/components/${segment}`, "encoded");
      expect(await page.locator("h1").textContent()).toBe(name);
    }
  });

  it.each([
    { width: 390, height: 844, scheme: "light" },
    { width: 390, height: 844, scheme: "dark" },
    { width: 1280, height: 900, scheme: "light" },
    { width: 1280, height: 900, scheme: "dark" },
  ] as const)("fits $width px in the $scheme scheme, with one h1, no skipped heading and no serious axe finding", async ({ width, height, scheme }) => {
    const page = await app().newPage({ viewport: { width, height }, colorScheme: scheme });
    await app().visit(page, THAT_DAY, `actions-${width}-${scheme}`);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    const outline = await readOutline(page);
    expect([outline.h1Count, outline.skips]).toEqual([1, []]);
    expect(await findSeriousViolations(page)).toEqual([]);
  });
});

describe("when an incident was posted, on its page", () => {
  it("says a named component was degraded before it was posted, how that compares with its stated start, and that it and its first update were posted late", async () => {
    const page = await app().page();
    await app().visit(page, INCIDENT, "incident-timing");
    const timing = text(await page.locator("section.incident-timing").textContent());
    expect(timing).toContain("Actions was degraded 23 min before this incident was posted");
    expect(timing).toContain("The vendor gives 2026-03-09 10:08 UTC as its start, 3 min after Actions was first seen degraded.");
    expect(timing).toContain("Posted late. Posted at least 12 min after the time it gives: it gives 2026-03-09 10:08 UTC as its start, but its source's capture at 2026-03-09 10:20 UTC did not show it (first seen 2026-03-09 10:28 UTC).");
    const late = page.locator("ol.timeline > li", { has: page.locator(".badge", { hasText: "posted late" }) });
    expect(await late.count()).toBe(1);
    expect(text(await late.textContent())).toContain("We are investigating delays in starting Actions runs.");
    await page.locator("section.incident-timing").getByRole("link", { name: "Actions" }).click();
    await page.waitForURL(/\/vendors\/relay\/components\/rlyact000001$/);
  });
});

describe("component figures on the vendor page and in the comparison", () => {
  it("gives the time degraded or out per group of the time watched, the quiet degradations and the acknowledgment lag, and says not stated for a vendor without a grid", async () => {
    const page = await app().page();
    await app().visit(page, "/vendors/relay", "relay-figures");
    const figure = async (name: string) => text(await page.locator("dl.figures > div", { has: page.locator("dt", { hasText: new RegExp(`^${name}$`) }) }).locator("dd").textContent());
    expect(await figure("Quiet degradations")).toBe("1");
    expect(await figure("Median acknowledgment lag")).toBe("23 min (1 of 1 incidents naming components)");
    expect(await figure("Time degraded or out")).toBe("35 min (70% of the time watched)");
    const groups = page.getByRole("table", { name: /Relay Networks components by group/ });
    expect(await groups.locator("tbody th").allTextContents()).toEqual(["Core", "No group"]);
    await groups.getByRole("link", { name: "Public API" }).click();
    await page.waitForURL(/\/vendors\/relay\/components\/rlyapi000001$/);

    await app().visit(page, "/compare?vendors=relay,hostile", "compare-components");
    const row = async (label: string) => page.locator("table.comparison tbody tr", { has: page.locator("th", { hasText: new RegExp(`^${label}$`) }) }).locator("td").allTextContents();
    expect(await row("Quiet degradations")).toEqual(["1", "not stated: its feeds state no component grid"]);
    expect((await row("Median acknowledgment lag"))[1]).toBe("not stated: its feeds state no component grid");
  });
});
