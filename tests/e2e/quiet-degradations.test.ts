import { describe, expect, it } from "vitest";
import { findSeriousViolations } from "@/tests/e2e/support/axe";
import { startE2eApp } from "@/tests/e2e/support/e2e-app";
import { horizontalOverflow } from "@/tests/e2e/support/page-checks";
import { corpusAvailable } from "@/tests/support/corpus-location";

const app = startE2eApp("quiet");

/** The stretch lines of the list, the folded "N more" lines left out. */
const STRETCHES = "ol.quiet-list > li:not(.quiet-more)";

describe("quiet degradations on the home page", () => {
  it("are a tab beside the quiet edits: one line per vendor and stretch, a vendor's older stretches folded into a link to its own list", async () => {
    const page = await app().page();
    await app().visit(page, "/", "home");
    await page.getByRole("link", { name: "Quiet degradations" }).click();
    await page.waitForURL(/[?&]show=degradations/);
    await expect(page.getByRole("link", { name: "Quiet degradations" }).getAttribute("aria-current")).resolves.toBe("page");
    const calm = page.locator(STRETCHES).filter({ has: page.locator(".change-meta a", { hasText: "Calm Cloud" }) });
    await expect(calm.count()).resolves.toBe(3);
    const newest = calm.first();
    await expect(newest.locator(".change-title").textContent()).resolves.toMatch(/^Webhooks \(Core platform\)\s*Quiet degradation$/);
    await expect(newest.locator(".change-meta").textContent()).resolves.toMatch(/^Ongoing at the last capture · Calm Cloud · from 2026-03-05 14:00 UTC/);
    await expect(newest.getByRole("link", { name: "Webhooks" }).getAttribute("href")).resolves.toBe("/vendors/calm/components/calmhook0001");
    await expect(newest.getByRole("link", { name: "See the page as it was" }).getAttribute("href")).resolves.toBe("/vendors/calm/status?at=2026-03-05T14:00:00.000Z");
    const acme = page.locator(STRETCHES).filter({ has: page.locator(".change-meta a", { hasText: "Acme Cloud" }) });
    await expect(acme.locator(".change-title").textContent()).resolves.toContain("REST API");
    if (corpusAvailable) await expect(page.getByRole("link", { name: "5 more from Jira" }).count()).resolves.toBe(1);
    await page.getByRole("link", { name: "1 more from Calm Cloud" }).click();
    await page.waitForURL(/[?&]vendor=calm/);
    await app().screenshot(page, "calm-degradations");
    const own = page.locator(STRETCHES);
    await expect(own.count()).resolves.toBe(4);
    await expect(page.locator("ol.quiet-list > li.quiet-more").count()).resolves.toBe(0);
    const europe = own.last();
    // Five data centres at once: three named, the rest counted; a name holding markup shows as text.
    await expect(europe.locator(".change-title").textContent()).resolves.toMatch(/^Amsterdam \(Europe\), Dublin <b>edge<\/b> \(Europe\), Frankfurt \(Europe\) \+2 more/);
    await expect(europe.locator(".change-meta").textContent()).resolves.toMatch(/^Lasted 1 h · Calm Cloud · from 2026-03-05 10:00 UTC/);
    await expect(europe.locator("b").count()).resolves.toBe(0);
  });

  it("narrow to a component group with the form, keeping the vendor", async () => {
    const page = await app().page();
    await app().visit(page, "/?show=degradations&vendor=calm", "calm-degradations-form");
    await page.getByLabel("Component group").selectOption("Europe");
    await page.getByRole("button", { name: "Show" }).click();
    await page.waitForURL(/[?&]group=Europe/);
    expect(new URL(page.url()).searchParams.get("vendor")).toBe("calm");
    await app().screenshot(page, "calm-degradations-europe");
    await expect(page.locator(STRETCHES).count()).resolves.toBe(1);
    await expect(page.locator(STRETCHES).first().locator(".change-title").textContent()).resolves.toContain("Frankfurt (Europe)");
    const feed = await page.getByRole("link", { name: "Atom" }).getAttribute("href");
    expect(feed).toBe("/vendors/calm/kinds/quiet-degradation/feed.atom?group=Europe");
    const atom = await fetch(`${app().baseUrl}${feed ?? ""}`);
    expect(atom.status).toBe(200);
    expect(atom.headers.get("content-type")).toMatch(/^application\/atom\+xml/);
    const body = await atom.text();
    expect(body.match(/<entry>/g)).toHaveLength(1);
    // A component named with markup ("Dublin <b>edge</b>") reaches a feed title as plain words: readers render titles as HTML.
    expect(body).toContain("<title type=\"text\">Calm Cloud: Quiet degradation: Amsterdam, Dublin edge, Frankfurt +2 more</title>");
    expect(body).not.toMatch(/<title[^>]*>[^<]*&lt;b&gt;/);
  });

  it("refuse a group on another tab with a 400 page naming the parameter", async () => {
    const page = await app().page();
    await app().visit(page, "/?group=Europe", "group-without-tab", 400);
    await expect(page.locator("main strong").textContent()).resolves.toBe("group: a group narrows quiet degradations: use it with show=degradations");
  });

  it("are listed by the JSON API through the web server", async () => {
    const response = await fetch(`${app().baseUrl}/api/v1/vendors/calm/quiet-degradations?limit=3`);
    expect(response.status).toBe(200);
    const page = (await response.json()) as { data: Array<{ from: string; until: string | null; components: Array<{ name: string }> }>; next: string };
    expect(page.data.map((q) => q.from)).toEqual(["2026-03-05T14:00:00.000Z", "2026-03-05T13:00:00.000Z", "2026-03-05T12:00:00.000Z"]);
    const rest = (await (await fetch(page.next)).json()) as { data: Array<{ components: unknown[] }>; next: string | null };
    expect(rest.data[0]?.components).toHaveLength(5);
    expect(rest.next).toBeNull();
  });

  for (const viewport of [{ width: 390, height: 844, isMobile: true, hasTouch: true }, { width: 1280, height: 900 }]) {
    it(`fit the screen at ${viewport.width} px and pass axe-core in the light and the dark scheme`, async () => {
      const { isMobile, hasTouch, ...size } = viewport;
      const page = await app().page({ viewport: size, ...(isMobile ? { isMobile, hasTouch } : {}) });
      const problems: string[] = [];
      for (const path of ["/?show=degradations", "/?show=degradations&vendor=calm"]) {
        await app().visit(page, path, `${viewport.width}-${path.includes("vendor") ? "calm" : "all"}`);
        for (const scheme of ["light", "dark"] as const) {
          await page.emulateMedia({ colorScheme: scheme });
          const overflow = await horizontalOverflow(page);
          if (overflow > 0) problems.push(`${path} at ${viewport.width}-${scheme}: ${overflow} px wider than the screen`);
          for (const v of await findSeriousViolations(page)) problems.push(`${path} at ${viewport.width}-${scheme}: ${v.impact} ${v.rule}: ${v.help} (${v.nodes.join("; ")})`);
          await app().screenshot(page, `${viewport.width}-${scheme}-${path.includes("vendor") ? "calm" : "all"}`);
        }
      }
      expect(problems).toEqual([]);
    });
  }
});
