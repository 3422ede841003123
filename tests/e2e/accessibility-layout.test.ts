import type { Page } from "playwright";
import { describe, expect, it } from "vitest";
import { startE2eApp } from "@/tests/e2e/support/e2e-app";
import { type ChartLabel, findContrastProblems, findSqueezedCells, horizontalOverflow, readChartLabels, readOutline } from "@/tests/e2e/support/page-checks";
import { corpusAvailable } from "@/tests/support/corpus-location";

const app = startE2eApp("a11y");

type NamedPage = readonly [name: string, path: string];

const INCIDENT = "/vendors/acme/incidents/acmeapi00001";
const PAGES: readonly NamedPage[] = [
  ["home", "/"],
  ["vendors", "/vendors"],
  ["vendor", "/vendors/acme"],
  ["vendor-changes", "/vendors/acme/changes"],
  ["vendor-status", "/vendors/acme/status?at=2026-03-02T10:30:00Z"],
  ["incident", INCIDENT],
  ["change", `${INCIDENT}/versions/3`],
  ["compare", `${INCIDENT}/compare?from=1&to=5`],
  ["postmortem-change", "/vendors/acme/incidents/acmehook0001/versions/3"],
  ["search", "/search?q=error"],
  ["vendor-comparison", "/compare?vendors=acme,hostile"],
];
/** Real history when the corpus is seeded: long titles, many versions, vendor HTML turned to text. */
const CORPUS_PAGES: readonly NamedPage[] = corpusAvailable ? [["github", "/vendors/github"], ["jira-changes", "/vendors/jira/changes"]] : [];
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

async function expectAaContrast(page: Page): Promise<void> {
  expect(await findContrastProblems(page)).toEqual([]);
}

describe("structure a screen reader relies on, and contrast", () => {
  it.each<NamedPage>([...PAGES, ...CORPUS_PAGES, ["not-found", "/vendors/nope"]])(
    "%s has one h1, one main landmark, labelled navigation, no skipped heading level, labelled controls and AA contrast",
    async (name, path) => {
      const page = await app().page();
      await app().visit(page, path, `light-${name}`, name === "not-found" ? 404 : 200);
      const outline = await readOutline(page);
      expect(outline.h1Count).toBe(1);
      expect(outline.levels[0]).toBe(1);
      expect(outline.skips).toEqual([]);
      expect(outline.mainCount).toBe(1);
      expect(outline.navLabels).toContain("Main");
      expect(new Set(outline.navLabels).size, "distinct nav labels").toBe(outline.navLabels.length);
      await expect(page.locator("html").getAttribute("lang")).resolves.toBe("en");
      expect(await page.title()).not.toBe("");
      const unlabelled = await page.locator("input:not([type=hidden]), select, textarea").evaluateAll((controls) =>
        controls.filter((c) => (c as HTMLInputElement).labels?.length === 0 && !c.getAttribute("aria-label")).map((c) => c.outerHTML.slice(0, 80)),
      );
      expect(unlabelled).toEqual([]);
      await expectAaContrast(page);
    },
  );

  it("the 400 page has one h1, a main landmark and AA contrast", async () => {
    const page = await app().page();
    await app().visit(page, "/?kind=bogus", "light-bad-request", 400);
    const outline = await readOutline(page);
    expect([outline.h1Count, outline.mainCount, outline.skips]).toEqual([1, 1, []]);
    await expectAaContrast(page);
  });

  it.each<NamedPage>([...PAGES.filter(([name]) => ["home", "vendor", "change", "compare", "search"].includes(name)), ["hostile", "/vendors/hostile/incidents/hostile00001"]])(
    "%s keeps AA contrast in the dark colour scheme",
    async (name, path) => {
      const page = await app().page({ colorScheme: "dark" });
      await app().visit(page, path, `dark-${name}`);
      await expect(page.evaluate(() => getComputedStyle(document.body).backgroundColor)).resolves.toBe("rgb(13, 17, 23)");
      await expectAaContrast(page);
    },
  );
});

describe("keyboard", () => {
  it("the first Tab reaches the skip link, and following it moves focus to the main content", async () => {
    const page = await app().newPage();
    await app().visit(page, INCIDENT, "keyboard-start");
    await page.keyboard.press("Tab");
    const focused = page.locator(":focus");
    await expect(focused.textContent()).resolves.toBe("Skip to content");
    const box = await focused.boundingBox();
    expect(box?.x ?? -1, "the focused skip link is on screen").toBeGreaterThanOrEqual(0);
    await app().screenshot(page, "keyboard-skip-link");
    await page.keyboard.press("Enter");
    await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe("main");
    expect(new URL(page.url()).hash).toBe("#main");
    await page.keyboard.press("Tab");
    await expect(page.evaluate(() => document.activeElement?.closest("main") !== null)).resolves.toBe(true);
  });
});

describe("phone layout", () => {
  it.each<NamedPage>([
    ["home", "/"],
    ["incident", INCIDENT],
    ["change", `${INCIDENT}/versions/3`],
    ["vendor", "/vendors/acme"],
    ["hostile-change", "/vendors/hostile/incidents/hostile00001/versions/2"],
    ...CORPUS_PAGES,
  ])("%s fits a 390 px wide screen without horizontal scrolling", async (name, path) => {
    const page = await app().page(PHONE);
    await app().visit(page, path, `phone-${name}`);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  });

  it("shows a long rewritten postmortem as each version's opening within four screens on a phone, its whole text one click away", async () => {
    const page = await app().page(PHONE);
    await app().visit(page, "/vendors/longform/incidents/lfdatabase01/versions/2", "phone-rewritten-postmortem");
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    expect(height, "page height on a 844 px tall phone").toBeLessThan(4 * PHONE.viewport.height);
    const whole = page.locator("details.whole-text");
    await expect(whole.locator(".side-after").isVisible()).resolves.toBe(false);
    await whole.locator("summary").click();
    await expect(whole.locator(".side-after").textContent()).resolves.toContain("no claim is needed");
    await expect(whole.locator(".side-before").textContent()).resolves.toContain("Error rates returned to normal by 16:40 UTC.");
  });

  it("lists vendors as cards on a phone, each value under its column's name", async () => {
    const page = await app().page(PHONE);
    await app().visit(page, "/vendors", "phone-vendors");
    const cards = await page.locator("table.vendor-table > tbody > tr").evaluateAll((rows) =>
      rows.map((row) => ({ display: getComputedStyle(row).display, labels: Array.from(row.querySelectorAll("td")).map((td) => getComputedStyle(td, "::before").content) })),
    );
    expect(cards.length).toBeGreaterThan(0);
    for (const card of cards) expect(card).toEqual({ display: "block", labels: ["none", '"Now"', '"Last incident"', '"Last 90 days"', '"Polling"'] });
  });

  it("keeps table columns wide enough to read on a phone", async () => {
    const page = await app().page(PHONE);
    const squeezed: string[] = [];
    for (const path of ["/vendors", INCIDENT]) {
      await page.goto(path);
      for (const cell of await findSqueezedCells(page)) squeezed.push(`${path}: ${cell}`);
    }
    expect(squeezed).toEqual([]);
  });
});

describe("charts", () => {
  const CHARTS: readonly NamedPage[] = [
    ["vendor", "/vendors/acme"],
    ["vendor-comparison", "/compare?vendors=acme,hostile"],
    ...(corpusAvailable
      ? ([
          ["github", "/vendors/github"],
          ["jira", "/vendors/jira"],
          // Twelve months: one label per month at 1280 px.
          ["jira-2025", "/vendors/jira?since=2025-01-01&until=2025-12-31"],
          ["corpus-comparison", "/compare?vendors=github,jira,acme"],
        ] as const)
      : []),
  ];
  const WIDTHS = [
    ["390", PHONE],
    ["1280", { viewport: { width: 1280, height: 900 } }],
  ] as const;
  const overlaps = (a: ChartLabel, b: ChartLabel) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

  it.each(WIDTHS.flatMap(([width, options]) => CHARTS.map(([name, path]) => [`${name} at ${width} px`, path, options] as const)))(
    "%s: every chart's labels are apart, on screen and at least the body's small text size",
    async (name, path, options) => {
      const page = await app().page(options);
      await app().visit(page, path, `chart-${name.replace(/ at (\d+) px/, "-$1")}`);
      const { smallPx, viewportWidth, charts } = await readChartLabels(page);
      expect(charts.length).toBeGreaterThan(0);
      for (const { bars, labels } of charts) {
        const months = labels.filter((l) => /^\d{4}-\d{2}$/.test(l.text));
        if (bars >= 2) expect(months.length, "month labels shown").toBeGreaterThanOrEqual(2);
        for (const [i, a] of labels.entries()) {
          expect(a.fontPx, `"${a.text}" font size`).toBeGreaterThanOrEqual(smallPx);
          expect([a.left >= 0, a.right <= viewportWidth], `"${a.text}" within the screen`).toEqual([true, true]);
          for (const b of labels.slice(i + 1)) expect(overlaps(a, b), `"${a.text}" and "${b.text}" overlap`).toBe(false);
        }
      }
    },
  );
});
