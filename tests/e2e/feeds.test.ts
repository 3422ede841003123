import ICAL from "ical.js";
import Parser from "rss-parser";
import { describe, expect, it } from "vitest";
import { startE2eApp } from "@/tests/e2e/support/e2e-app";

const app = startE2eApp("feeds");

const INCIDENT = "/vendors/acme/incidents/acmeapi00001";

async function alternates(pathname: string): Promise<Record<string, string>> {
  const page = await app().page();
  await app().visit(page, pathname, `alternates-${pathname.replace(/[^a-z0-9]+/gi, "-")}`);
  const links = await page.locator('head link[rel="alternate"]').evaluateAll((nodes) =>
    nodes.map((n) => [n.getAttribute("type") ?? "", (n as HTMLLinkElement).href] as const),
  );
  return Object.fromEntries(links);
}

describe("feeds, as a reader's browser and feed reader find them", () => {
  it("the vendor profile links its feeds on the page and announces them for discovery", async () => {
    const page = await app().page();
    await app().visit(page, "/vendors/acme", "vendor-feed-links");
    const atom = page.getByRole("link", { name: "Atom" }).first();
    await expect(atom.getAttribute("href")).resolves.toBe("/vendors/acme/feed.atom");
    const found = await alternates("/vendors/acme");
    expect(Object.keys(found).sort()).toEqual(["application/atom+xml", "application/feed+json", "application/rss+xml"]);
    expect(found["application/atom+xml"]).toBe(`${app().baseUrl}/vendors/acme/feed.atom`);
    const response = await fetch(found["application/atom+xml"] ?? "");
    expect(response.headers.get("content-type")).toMatch(/^application\/atom\+xml/);
    const feed = await new Parser().parseString(await response.text());
    expect(feed.items.length).toBeGreaterThan(0);
    expect(feed.items.every((i) => i.title?.startsWith("Acme Cloud: "))).toBe(true);
  });

  it("the vendor profile links its maintenance calendar, which a calendar client reads as the vendor's", async () => {
    const page = await app().page();
    await app().visit(page, "/vendors/acme", "vendor-calendar-link");
    const link = page.getByRole("link", { name: "Maintenance calendar (iCalendar)" });
    await expect(link.getAttribute("href")).resolves.toBe("/vendors/acme/maintenance.ics");
    const response = await fetch(`${app().baseUrl}/vendors/acme/maintenance.ics`);
    expect(response.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
    const calendar = new ICAL.Component(ICAL.parse(await response.text()));
    expect(calendar.name).toBe("vcalendar");
    expect(calendar.getFirstPropertyValue("prodid")).toBe("-//Redline//Maintenance calendar//EN");
    for (const event of calendar.getAllSubcomponents("vevent")) expect(String(event.getFirstPropertyValue("uid"))).toMatch(/@acme\.redline$/);
  });

  it("every item of an incident's feed opens its change page", async () => {
    const found = await alternates(INCIDENT);
    const feed = (await (await fetch(found["application/feed+json"] ?? "")).json()) as { items: { url: string; title: string }[] };
    expect(feed.items.length).toBeGreaterThan(1);
    const page = await app().page();
    for (const item of feed.items.slice(0, 3)) {
      expect(new URL(item.url).origin).toBe(app().baseUrl);
      await app().visit(page, new URL(item.url).pathname, `feed-item-${item.url.split("/").pop() ?? ""}`);
      await expect(page.locator("h1").textContent()).resolves.toBe(item.title);
    }
  });

  it("the latest changes filtered by one kind announce that kind's feed, and a reader polling it gets 304", async () => {
    const found = await alternates("/?kind=impact-downgraded");
    const rss = found["application/rss+xml"] ?? "";
    expect(rss).toBe(`${app().baseUrl}/kinds/impact-downgraded/feed.rss`);
    const first = await fetch(rss);
    const feed = await new Parser().parseString(await first.text());
    expect(feed.items.every((i) => i.title?.includes(": Impact downgraded: "))).toBe(true);
    const again = await fetch(rss, { headers: { "if-none-match": first.headers.get("etag") ?? "" } });
    expect(again.status).toBe(304);
  });
});
