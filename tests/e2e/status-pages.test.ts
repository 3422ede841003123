import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Page } from "playwright";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findSeriousViolations } from "@/tests/e2e/support/axe";
import { startE2eApp } from "@/tests/e2e/support/e2e-app";
import { horizontalOverflow, readOutline } from "@/tests/e2e/support/page-checks";
import { corpusAvailable } from "@/tests/support/corpus-location";

const app = startE2eApp("status");

/**
 * A vendor with groups captured minutes ago (so its Now is current): Compute in a partial outage,
 * Edge all operational, DNS degraded and an incident open; the second capture brings DNS back.
 * And a Slack-format vendor whose components are known only from its open incident.
 */
const MIN = 60_000;
// Set once the app is up (its build can take minutes), so the captures are minutes old when the tests look.
let T1 = new Date(0);
let T2 = new Date(0);
let AT = "";
let AT_PATH = "";
const stamp = (d: Date) => d.toISOString().replace(/[-:]/g, "").replace(/\.\d{3}/, "");
const minute = (d: Date) => `${d.toISOString().slice(0, 10)} ${d.toISOString().slice(11, 16)} UTC`;

const HOSTILE = '<img src=x onerror="alert(1)">Status<script>alert(2)</script>';
const component = (id: string, name: string, status: string, groupId: string | null = null, group = false) => ({
  id, name, status, group_id: groupId, group, updated_at: T1.toISOString(), created_at: "2020-01-01T00:00:00.000Z", position: 1, description: null, showcase: true, only_show_if_degraded: false,
});
const incident = () => ({
  id: "grpinc000001", name: "Slow VM starts", status: "investigating", impact: "minor", shortlink: "https://stspg.io/x", created_at: T1.toISOString(), updated_at: T1.toISOString(),
  monitoring_at: null, resolved_at: null, started_at: T1.toISOString(), page_id: "grp", components: [{ id: "cmpvms000001", name: "Virtual machines" }],
  incident_updates: [{ id: "grpupd000001", status: "investigating", body: "VMs start slowly.", created_at: T1.toISOString(), display_at: T1.toISOString(), updated_at: T1.toISOString() }],
});
function summary(dns: string): string {
  return JSON.stringify({
    page: { id: "grp", name: "Group Cloud", url: "https://status.group.test", time_zone: "Etc/UTC", updated_at: T1.toISOString() },
    components: [
      component("grp0compute1", "Compute", "partial_outage", null, true),
      component("cmpvms000001", "Virtual machines", "partial_outage", "grp0compute1"),
      component("cmpfunc00002", "Functions", "operational", "grp0compute1"),
      component("grp0edge0003", "Edge", "operational", null, true),
      component("cmpcdn000004", "CDN", "operational", "grp0edge0003"),
      component("cmpdns000005", "DNS", dns),
      component("cmpbill00006", "Billing", "operational"),
      component("cmphostile07", HOSTILE, "operational"),
    ],
    incidents: [incident()],
    scheduled_maintenances: [],
    status: { indicator: "minor", description: "Minor" },
  });
}
function slackCurrent(): string {
  return JSON.stringify({
    status: "active", date_created: T1.toISOString(), date_updated: T1.toISOString(),
    active_incidents: [{ id: 7001, date_created: T1.toISOString(), date_updated: T1.toISOString(), title: "Trouble sending messages", type: "outage", status: "active", url: "https://status.slack.test/7001", services: ["Messaging"], notes: [{ date_created: T1.toISOString(), body: "Some users cannot send messages." }] }],
  });
}

let dir: string;
beforeAll(async () => {
  const started = Date.now();
  T1 = new Date(Math.floor((started - 10 * MIN) / 1000) * 1000);
  T2 = new Date(Math.floor((started - 4 * MIN) / 1000) * 1000);
  AT = new Date(T1.getTime() + 2 * MIN + 7_000).toISOString();
  AT_PATH = `/vendors/groupco/status?at=${AT}`;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "redline-status-e2e-"));
  const groups = path.join(dir, "groups");
  const slack = path.join(dir, "slack");
  fs.mkdirSync(groups);
  fs.mkdirSync(slack);
  fs.writeFileSync(path.join(groups, `${stamp(T1)}__summary.json`), summary("degraded_performance"));
  fs.writeFileSync(path.join(groups, `${stamp(T2)}__summary.json`), summary("operational"));
  fs.writeFileSync(path.join(slack, `${stamp(T2)}__current.json`), slackCurrent());
  await app().redline(["import", groups, "--vendor", "groupco", "--name", "Group Cloud", "--platform", "statuspage-summary"]);
  await app().redline(["import", slack, "--vendor", "chatco", "--name", "Chat Co", "--platform", "slack"]);
}, 120_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));


/** Names and states of the grid's lines, in the order a reader meets them. */
function gridOf(page: Page, scope: string) {
  return page.locator(`${scope} .status-grid`).evaluate((grid) =>
    Array.from(grid.querySelectorAll("h3, h4, summary, li")).map((el) => `${el.tagName.toLowerCase()}: ${(el.textContent ?? "").replace(/\s+/g, " ").trim()}`),
  );
}

describe("the status grid on the vendor page and the page as it was", () => {
  it("shows the grid in the vendor's Now: grouped, worst first, a group all operational folded, each name (markup and all, as text) linking to its component page", async () => {
    const page = await app().page();
    await app().visit(page, "/vendors/groupco", "vendor-now-grid");
    const now = page.locator("section[aria-labelledby=now-heading]");
    await expect(now.locator("h3").first().textContent()).resolves.toBe("Components");
    const grid = await gridOf(page, "section[aria-labelledby=now-heading]");
    expect(grid.map((line) => line.replace(/, since .*$/, ""))).toEqual([
      "h4: Compute Partial outage",
      "li: Virtual machines Partial outage the vendor’s word: partial_outage",
      "li: Functions Operational the vendor’s word: operational",
      `li: ${HOSTILE} Operational the vendor’s word: operational`,
      "li: Billing Operational the vendor’s word: operational",
      "li: DNS Operational the vendor’s word: operational",
      "summary: Edge Operational (1 component)",
      "li: CDN Operational the vendor’s word: operational",
    ]);
    // A vendor's markup in a component's name is text, never an element.
    expect(await page.locator("main img, main script").count()).toBe(0);
    expect(await now.locator("details.component-group").getAttribute("open")).toBeNull();
    expect(await now.locator("details.component-group li").isVisible()).toBe(false);
    expect(await now.getByRole("link", { name: "Virtual machines" }).getAttribute("href")).toBe("/vendors/groupco/components/cmpvms000001");
    expect(await now.getByRole("link", { name: "Compute" }).getAttribute("href")).toBe("/vendors/groupco/components/grp0compute1");
    await now.getByRole("link", { name: "See the page as it was at any moment" }).click();
    await page.waitForURL(/\/vendors\/groupco\/status$/);
    await expect(page.locator("h1").textContent()).resolves.toBe("Group Cloud status page now");
  });

  it("marks states known only from incidents as inferred", async () => {
    const page = await app().page();
    await app().visit(page, "/vendors/chatco", "vendor-now-inferred");
    const line = page.locator("section[aria-labelledby=now-heading] .status-grid li", { hasText: "Messaging" });
    await expect(line.textContent()).resolves.toMatch(/Messaging.*inferred from incidents/);
  });

  it("shows the page as it was: the grid then, the incidents open then linked to their version of then, the capture it rests on and the changes around it", async () => {
    const page = await app().page();
    await app().visit(page, AT_PATH, "as-it-was");
    const main = page.locator("main");
    await expect(page.locator("h1").textContent()).resolves.toBe(`Group Cloud status page at ${minute(new Date(AT))}`);
    await expect(main.textContent()).resolves.toContain(`As observed at ${minute(T1)}, 2 min before; next observed at ${minute(T2)}, 4 min after.`);
    const grid = await gridOf(page, "main");
    expect(grid[0]).toMatch(/^h3: Compute Partial outage/);
    expect(grid.findIndex((l) => l.startsWith("li: DNS Degraded performance"))).toBeGreaterThan(0);
    const open = page.locator("section[aria-labelledby=open-heading] li");
    await expect(open.count()).resolves.toBe(1);
    const version = await open.getByRole("link", { name: "Slow VM starts" }).getAttribute("href");
    expect(version).toMatch(/^\/vendors\/groupco\/incidents\/grpinc000001\/versions\/1$/);
    const changes = page.getByRole("navigation", { name: "Changes of this page" });
    await expect(changes.textContent()).resolves.toContain("No earlier change");
    await changes.getByRole("link", { name: /Next change/ }).click();
    await page.waitForURL(/status\?at=/);
    await expect(page.locator("main .status-grid li", { hasText: "DNS" }).textContent()).resolves.toContain("Operational");
    await page.goto(version ?? "");
    await expect(page.locator("h1").textContent()).resolves.toContain("Slow VM starts");
  });

  it("moves to another moment with the plain GET form, without JavaScript", async () => {
    const page = await app().page({ javaScriptEnabled: false });
    await app().visit(page, "/vendors/groupco/status", "as-it-is-now-no-js");
    await page.getByLabel("Moment (UTC)").fill(AT.slice(0, 19));
    await page.getByRole("button", { name: "Show the page then" }).click();
    await page.waitForURL(/status\?at=/);
    // The same moment: Chromium's datetime-local leaves ":00" seconds out ("16:47" for 16:47:00), as AT's may be.
    const submitted = new URL(page.url()).searchParams.get("at") ?? "";
    expect(new Date(`${submitted}Z`).toISOString().slice(0, 19)).toBe(AT.slice(0, 19));
    await expect(page.locator("h1").textContent()).resolves.toBe(`Group Cloud status page at ${minute(new Date(AT))}`);
  });

  it("says from when the vendor is archived for a moment before it, and answers a malformed moment with the 400 page", async () => {
    const page = await app().page();
    await app().visit(page, `/vendors/groupco/status?at=${new Date(T1.getTime() - MIN).toISOString()}`, "before-archive");
    await expect(page.locator("main").textContent()).resolves.toContain(`Group Cloud is archived from ${T1.toISOString()}: nothing is known of its page before.`);
    await page.getByRole("link", { name: /See the page as first captured/ }).click();
    await page.waitForURL(/status\?at=/);
    await expect(page.locator("main").textContent()).resolves.toContain(`As observed at ${minute(T1)}, less than a minute before`);
    const bad = await fetch(`${app().baseUrl}/vendors/groupco/status?at=soon`);
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("at: expected an ISO 8601 time");
    expect((await fetch(`${app().baseUrl}/vendors/nope/status`)).status).toBe(404);
  });

  it("links each version of an incident, on its page and on a change page, to the vendor's page as it was when it was observed", async () => {
    const page = await app().page();
    await app().visit(page, "/vendors/acme/incidents/acmeapi00001", "incident-links");
    const links = page.locator('ol.history a[href^="/vendors/acme/status?at="]');
    expect(await links.count()).toBe(await page.locator("ol.history > li").count());
    await app().visit(page, "/vendors/acme/incidents/acmeapi00001/versions/2", "change-links");
    const observed = await page.locator("main > p.muted time").first().getAttribute("datetime");
    await page.getByRole("link", { name: "See Acme Cloud’s page as it was then" }).click();
    await page.waitForURL(/status\?at=/);
    expect(new URL(page.url()).searchParams.get("at")).toBe(observed);
    await expect(page.locator("main").textContent()).resolves.toMatch(/As observed at/);
  });

  it("serves the same view as JSON through the API, kept by the page cache and rate limited as the API is", async () => {
    const url = `${app().baseUrl}/api/v1${AT_PATH}`;
    const first = await fetch(url);
    expect(first.status).toBe(200);
    expect(first.headers.get("ratelimit-policy")).toMatch(/per-client/);
    const body = (await first.json()) as { vendor: string; observedAt: string; components: Array<{ name: string; status: string; group: string | null }>; incidents: Array<{ id: string; seq: number }> };
    expect([body.vendor, body.observedAt]).toEqual(["groupco", T1.toISOString()]);
    expect(body.components.find((c) => c.name === "DNS")?.status).toBe("degraded");
    expect(body.components.find((c) => c.name === "CDN")?.group).toBe("Edge");
    expect(body.incidents).toEqual([{ id: "grpinc000001", title: "Slow VM starts", status: "investigating", impact: "minor", seq: 1 }]);
    expect((await fetch(url)).headers.get("x-redline-cache")).toBe("hit");
    expect((await fetch(`${app().baseUrl}/api/v1/vendors/groupco/status`)).headers.get("x-redline-cache")).toBe("bypass");
  });
});

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
const DESKTOP = { viewport: { width: 1280, height: 900 } };
const LAYOUT_PAGES: ReadonlyArray<readonly [string, () => string]> = [
  ["vendor-grid", () => "/vendors/groupco"],
  ["as-it-was", () => AT_PATH],
  ["inferred", () => "/vendors/chatco/status"],
  ...(corpusAvailable ? [["jira-as-it-was", () => "/vendors/jira/status?at=2025-06-11T03:00:00Z"] as const] : []),
];

describe("the grid and the page as it was at 390 and 1,280 px, light and dark", () => {
  it.each(LAYOUT_PAGES)("%s is no wider than the screen, has one h1 and no skipped heading, and axe-core finds nothing serious", async (name, pathOf) => {
    const pathname = pathOf();
    const problems: string[] = [];
    for (const [width, options] of [[390, PHONE], [1280, DESKTOP]] as const) {
      const page = await app().page(options);
      await app().visit(page, pathname, `${width}-light-${name}`);
      const outline = await readOutline(page);
      expect([outline.h1Count, outline.skips], `${name} at ${width}`).toEqual([1, []]);
      for (const scheme of ["light", "dark"] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        const overflow = await horizontalOverflow(page);
        if (overflow > 0) problems.push(`${name} at ${width}-${scheme}: ${overflow} px too wide`);
        for (const v of await findSeriousViolations(page)) problems.push(`${name} at ${width}-${scheme}: ${v.impact} ${v.rule}: ${v.help} (${v.nodes.join("; ")})`);
        await app().screenshot(page, `${width}-${scheme}-${name}`);
      }
      await page.emulateMedia({ colorScheme: "light" });
    }
    expect(problems).toEqual([]);
  });
});
