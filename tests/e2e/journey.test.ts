import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { startE2eApp } from "@/tests/e2e/support/e2e-app";

const app = startE2eApp("journey");

const INCIDENT = "/vendors/acme/incidents/acmeapi00001";

describe("a reader following an edited incident through the archive", () => {
  it("filters the latest changes by kind with the form, and every listed change has that kind", async () => {
    const page = await app().page();
    await app().visit(page, "/", "home");
    await expect(page.locator("h1").textContent()).resolves.toBe("Latest changes");
    expect(await page.locator("ol.change-list > li").count()).toBeGreaterThan(0);

    await page.locator("summary", { hasText: "Kinds of change" }).click();
    await page.getByLabel("Impact downgraded").check();
    await page.getByLabel("Vendor").selectOption("acme");
    await page.getByRole("button", { name: "Show" }).click();
    await page.waitForURL(/[?&]kind=impact-downgraded/);
    const url = new URL(page.url());
    expect(url.searchParams.getAll("kind")).toEqual(["impact-downgraded"]);
    expect(url.searchParams.get("vendor")).toBe("acme");
    await app().screenshot(page, "home-filtered");

    const rows = await page.locator("ol.change-list > li").all();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(await row.locator(".badge").allTextContents()).toContain("Impact downgraded");
      expect(await row.locator(".change-meta").textContent()).toContain("Acme Cloud");
    }
    await expect(page.locator("ol.change-list").textContent()).resolves.toContain("Elevated API error rates");
    await expect(page.getByLabel("Impact downgraded").isChecked()).resolves.toBe(true);

    await rows[0]?.getByRole("link", { name: "Acme Cloud" }).click();
    await page.waitForURL(/\/vendors\/acme$/);
  });

  it("opens on the quiet edits, each with its impact, open or resolved and when it was observed, with tabs for the rest", async () => {
    const page = await app().page();
    await app().visit(page, "/", "home-quiet");
    await expect(page.getByRole("link", { name: "Quiet edits" }).getAttribute("aria-current")).resolves.toBe("page");
    const quiet = ["Incident deleted", "Impact downgraded", "Update edited", "Update removed", "Update backdated", "Timing changed", "Postmortem published", "Postmortem edited"];
    const rows = await page.locator("ol.change-list > li").all();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      const badges = await row.locator(".badge").allTextContents();
      expect(badges.some((b) => quiet.includes(b)), badges.join(", ")).toBe(true);
      await expect(row.locator(".change-meta .impact").count()).resolves.toBe(1);
      expect(await row.locator(".change-meta").textContent()).toMatch(/(Open|Resolved|Status not stated).*observed \d{4}-\d{2}-\d{2}/);
    }
    await page.getByRole("link", { name: "New incidents" }).click();
    await page.waitForURL(/[?&]show=new/);
    for (const row of await page.locator("ol.change-list > li").all()) expect(await row.locator(".badge").allTextContents()).toContain("New incident");
  });

  it("compares two vendors side by side, picked with the form", async () => {
    const page = await app().page();
    await app().visit(page, "/compare?pick=acme", "compare-pick");
    const form = page.getByRole("form", { name: "Vendors to compare" });
    await expect(form.getByLabel("Acme Cloud").isChecked()).resolves.toBe(true);
    await form.getByLabel("Hostile Status").check();
    await form.getByRole("button", { name: "Compare" }).click();
    await page.waitForURL(/vendors=acme&vendors=hostile/);
    await app().screenshot(page, "vendor-comparison");
    await expect(page.locator("table.comparison thead th").allTextContents()).resolves.toEqual(["Acme Cloud", "Hostile Status"]);
    const incidents = page.locator("table.comparison tbody tr", { hasText: "Incidents" }).first();
    await expect(incidents.locator("td").count()).resolves.toBe(2);

    // Over 2026, worded as on Acme's own page: its summary.json incident cannot show a postmortem.
    await app().visit(page, "/compare?vendors=acme&vendors=hostile&since=2026-01-01&until=2026-12-31", "vendor-comparison-2026");
    const postmortems = page.locator("table.comparison tbody tr", { hasText: "With a postmortem" });
    await expect(postmortems.locator("td").first().textContent()).resolves.toBe("100% (of 1; 1 more from a feed that drops ended incidents)");
  });

  it("shows the vendor's figures, an SVG chart and its incidents, for a period picked with the form", async () => {
    const page = await app().page();
    await app().visit(page, "/vendors/acme", "vendor");
    await expect(page.locator("h1").textContent()).resolves.toBe("Acme Cloud");

    const period = page.getByRole("form", { name: "Period" });
    await period.getByLabel("Since").fill("2026-01-01");
    await period.getByLabel("Until").fill("2026-12-31");
    await period.getByRole("button", { name: "Show" }).click();
    await page.waitForURL(/since=2026-01-01&until=2026-12-31/);
    await app().screenshot(page, "vendor-2026");
    await expect(page.locator("#figures-heading").textContent()).resolves.toBe("Track record, 2026-01-01 to 2026-12-31");
    await expect(period.getByLabel("Until").inputValue()).resolves.toBe("2026-12-31");

    const chart = page.locator("figure.chart svg[role=img]");
    expect(await chart.locator("rect.bar").count()).toBeGreaterThanOrEqual(12);
    expect(await chart.getAttribute("aria-label")).toContain("2026-03 2, 2026-04 0");
    const box = await chart.boundingBox();
    expect(box?.height ?? 0).toBeGreaterThan(50);
    const figures = Object.fromEntries(
      await page.locator("dl.figures > div").evaluateAll((divs) => divs.map((d) => [d.querySelector("dt")?.textContent ?? "", d.querySelector("dd")?.textContent ?? ""])),
    );
    // One incident left the summary.json feed unresolved: probably resolved then, and that feed cannot show a postmortem.
    expect(figures).toMatchObject({
      Incidents: "2",
      "With a postmortem": "100% (of 1; 1 more from a feed that drops ended incidents)",
      "Median time to resolve": "1 h 30 min (1 of 2 ended when they left the feed)",
    });

    const table = page.getByRole("table", { name: "Acme Cloud incidents, newest first" });
    const titles = await table.locator("tbody tr td:nth-child(2) a").allTextContents();
    expect(titles).toEqual(expect.arrayContaining(["Elevated API error rates", "Delayed webhook deliveries", "Database failover test"]));
    await expect(table.locator("tr", { hasText: "Delayed webhook deliveries" }).locator(".badge").textContent()).resolves.toBe("postmortem");

    await table.getByRole("link", { name: "Elevated API error rates" }).click();
    await page.waitForURL(new RegExp(`${INCIDENT}$`));
  });

  it("shows the incident with its history and the links to its other views", async () => {
    const page = await app().page();
    await app().visit(page, INCIDENT, "incident");
    await expect(page.locator("h1").textContent()).resolves.toBe("Elevated API error rates");
    await expect(page.locator("p.first-archived").textContent()).resolves.toContain("First version archived by Redline on 2026-03-02 09:00 UTC.");
    await expect(page.locator("ol.timeline").textContent()).resolves.toContain("We are investigating slightly elevated error rates for a small number of customers.");

    await expect(page.locator(".fact-impact .impact-history").textContent()).resolves.toMatch(/^ ?was (minor|major|critical) for .+ until /);
    const history = page.locator("ol.history");
    const lines = history.locator(":scope > li");
    const kinds = await lines.evaluateAll((lis) => lis.map((li) => [...li.querySelectorAll(".badge")].map((b) => b.textContent).join(", ")));
    expect(kinds).toEqual(["Left the feed", "Impact downgraded", "Update edited, Status changed, Update posted", "Status changed, Update posted", "New incident"]);
    const changes = await history.locator("a.history-change").allTextContents();
    expect(changes[0]).toBe("No longer in the feed.");
    expect(changes[1]).toMatch(/^Impact lowered from \w+ to \w+/);
    // The line leads with the change its change page leads with ("Update edited"), not the status.
    expect(changes[2]).toMatch(/^The update of [\d-]+ [\d:]+ UTC \(Investigating\) was rewritten/);
    expect(changes[3]).toMatch(/^Status changed from Investigating to /);
    expect(changes[4]).toMatch(/^New \w* ?incident\. First archived/);
    expect(changes.filter((c) => c.includes("Acme Cloud reported"))).toEqual([]);
    // The history comes before the timeline: the change is what a reader scans first.
    expect(await page.locator("#history-heading, #timeline-heading").evaluateAll((hs) => hs.map((h) => h.id))).toEqual(["history-heading", "timeline-heading"]);

    const links = page.locator("p.links").last();
    expect(await links.getByRole("link").evaluateAll((as) => as.map((a) => [a.textContent, a.getAttribute("href")]))).toEqual([
      ["All Acme Cloud changes →", "/vendors/acme/changes"],
      ["Acme Cloud profile", "/vendors/acme"],
      ["Markdown", `${INCIDENT}/export.md`],
      ["JSON", `${INCIDENT}/export.json`],
    ]);

    await history.locator("a.history-change").nth(2).click();
    await page.waitForURL(new RegExp(`${INCIDENT}/versions/3$`));
  });

  it("shows a change with its machine summary, Before / After and the rewritten words, then compares two versions", async () => {
    const page = await app().page();
    await app().visit(page, `${INCIDENT}/versions/3`, "change");
    await expect(page.locator("h1").textContent()).resolves.toBe("Acme Cloud: Update edited: Elevated API error rates");
    await expect(page.locator("p.notice").textContent()).resolves.toBe("Machine-written from the diff below; check the diff before relying on it.");
    await expect(page.locator("section[aria-labelledby=summary-heading] > p").first().textContent()).resolves.toMatch(/^The update of .+ was rewritten/);

    const blocks = page.locator(".what-changed > .change-block");
    // Significance order: the edit the page is headed by, then the status, then the new update.
    expect((await blocks.locator("h3").allTextContents()).map((h) => h.replace(/ \(.*\)$/, ""))).toEqual(["Update edited", "Status", "Update posted"]);
    const posted = blocks.filter({ hasText: "A fix is deployed" });
    await expect(posted.locator(".side-before .side-value").textContent()).resolves.toBe("not present");
    const edited = blocks.filter({ has: page.locator("del") });
    await expect(edited.locator(".side-before").textContent()).resolves.toContain("on the REST API in eu-west-1.");
    await expect(edited.locator(".side-after").textContent()).resolves.toContain("for a small number of customers.");
    expect((await edited.locator("del").allTextContents()).join(" ")).toContain("REST API");
    expect((await edited.locator("ins").allTextContents()).join(" ")).toContain("slightly");
    expect(await blocks.locator(".side-label").allTextContents()).toEqual(expect.arrayContaining(["Before", "After", "Word changes"]));
    // The edited text is rendered once, marked; the whole of both versions waits behind a click.
    await expect(edited.locator(".side-words").isVisible()).resolves.toBe(true);
    await expect(edited.locator("details.whole-text .side-before").isVisible()).resolves.toBe(false);
    await expect(edited.locator("details.whole-text > summary").textContent()).resolves.toBe("Whole text, before and after");

    const compare = page.getByRole("form", { name: "Compare two versions" });
    await compare.getByLabel("Compare version").selectOption("1");
    await compare.getByLabel("with").selectOption("4");
    await compare.getByRole("button", { name: "Compare" }).click();
    await page.waitForURL(/\/compare\?from=1&to=4$/);
    await app().screenshot(page, "compare");
    await expect(page.locator("h1").textContent()).resolves.toBe("Acme Cloud: compare versions 1 and 4: Elevated API error rates");
    await expect(page.locator(".what-changed > .change-block h3").first().textContent()).resolves.toBe("Impact");
    const impact = page.locator(".change-block", { has: page.locator("h3", { hasText: /^Impact$/ }) });
    await expect(impact.locator(".side-before .impact").textContent()).resolves.toBe("Major");
    await expect(impact.locator(".side-after .impact").textContent()).resolves.toBe("Minor");
  });

  it("reads the summary first, then the diff it is written from, whose line of inserted words has a green margin as its words have", async () => {
    const page = await app().page();
    await app().visit(page, "/vendors/acme/incidents/acmehook0001/versions/3", "postmortem-edit");
    const headings = await page.locator("main h2").allTextContents();
    expect(headings.indexOf("Summary")).toBeLessThan(headings.indexOf("What changed"));
    // The edit adds "routine" and "for 90 minutes" to a line and removes nothing from it.
    const line = page.locator(".what-changed .diff-line.diff-changed", { hasText: "routine" });
    await expect(line.locator("del").count()).resolves.toBe(0);
    const colours = await line.evaluate((el) => {
      const colourOf = (value: string) => {
        const probe = document.createElement("span");
        probe.style.color = value;
        document.body.append(probe);
        const colour = getComputedStyle(probe).color;
        probe.remove();
        return colour;
      };
      const ins = el.querySelector("ins");
      return { margin: getComputedStyle(el).borderLeftColor, inserted: colourOf("var(--ins-line)"), removed: colourOf("var(--del-line)"), insBackground: ins ? getComputedStyle(ins).backgroundColor : null, insGreen: colourOf("var(--ins-bg)") };
    });
    expect(colours.margin).toBe(colours.inserted);
    expect(colours.margin).not.toBe(colours.removed);
    expect(colours.insBackground).toBe(colours.insGreen);
  });

  it("links the first version to the next one and the last to the one before", async () => {
    const page = await app().page();
    await app().visit(page, `${INCIDENT}/versions/1`, "first-version");
    const first = page.getByRole("navigation", { name: "Versions" });
    expect(await first.getByRole("link").evaluateAll((as) => as.map((a) => [a.textContent, a.getAttribute("href")]))).toEqual([["Next version →", `${INCIDENT}/versions/2`]]);
    await app().visit(page, `${INCIDENT}/versions/5`, "last-version");
    const last = page.getByRole("navigation", { name: "Versions" });
    expect(await last.getByRole("link").evaluateAll((as) => as.map((a) => [a.textContent, a.getAttribute("href")]))).toEqual([["← Previous version", `${INCIDENT}/versions/4`]]);
  });

  it("finds the incident by words of an update, with the words highlighted", async () => {
    const page = await app().page();
    await app().visit(page, "/search", "search-empty");
    const form = page.getByRole("search", { name: "Search incidents" });
    await form.getByLabel("Words").fill("load balancer");
    await form.getByRole("button", { name: "Search" }).click();
    await page.waitForURL(/\/search\?q=load\+balancer/);
    await app().screenshot(page, "search");

    const hit = page.locator("ol.search-results > li", { hasText: "Elevated API error rates" });
    expect((await hit.locator("mark").allTextContents()).map((m) => m.toLowerCase())).toEqual(expect.arrayContaining(["load", "balancer"]));
    await hit.getByRole("link", { name: "Elevated API error rates" }).click();
    await page.waitForURL(new RegExp(`${INCIDENT}$`));
  });

  it("downloads Markdown and JSON exports that are exactly what the CLI prints", async () => {
    const page = await app().page();
    await app().visit(page, INCIDENT, "incident-for-export");
    const download = page.waitForEvent("download");
    await page.locator("p.links").last().getByRole("link", { name: "Markdown" }).click();
    const file = await (await download).path();
    expect(fs.readFileSync(file)).toEqual(await app().redline(["export", "--vendor", "acme", "--incident", "acmeapi00001", "--format", "md"]));

    const cases = [
      { path: `${INCIDENT}/export.md`, args: ["--format", "md"], type: "text/markdown; charset=utf-8", name: "acme-acmeapi00001.md" },
      { path: `${INCIDENT}/export.json`, args: ["--format", "json"], type: "application/json; charset=utf-8", name: "acme-acmeapi00001.json" },
      { path: `${INCIDENT}/versions/4/export.md`, args: ["--version", "4", "--format", "md"], type: "text/markdown; charset=utf-8", name: "acme-acmeapi00001-v4.md" },
      { path: `${INCIDENT}/versions/4/export.json`, args: ["--version", "4", "--format", "json"], type: "application/json; charset=utf-8", name: "acme-acmeapi00001-v4.json" },
    ];
    const printed = await Promise.all(cases.map((c) => app().redline(["export", "--vendor", "acme", "--incident", "acmeapi00001", ...c.args])));
    for (const [i, c] of cases.entries()) {
      const response = await fetch(`${app().baseUrl}${c.path}`);
      expect(response.status, c.path).toBe(200);
      expect(response.headers.get("content-type"), c.path).toBe(c.type);
      expect(response.headers.get("content-disposition"), c.path).toBe(`attachment; filename="${c.name}"`);
      const body = Buffer.from(await response.arrayBuffer());
      expect(body.toString("utf8"), c.path).toBe(printed[i]?.toString("utf8"));
      expect(printed[i] && body.equals(printed[i]), `${c.path} byte for byte`).toBe(true);
    }
  });
});
