import ICAL from "ical.js";
import Parser from "rss-parser";
import { beforeAll, describe, expect, it } from "vitest";
import type { RedlineDb } from "@/db/client";
import { versionsOfCapture } from "@/db/queries/capture-versions";
import { decodeCursor } from "@/db/driver/prepared";
import { getWatchlistPage, listWatchlistSummaries } from "@/db/queries/watchlist-page";
import { ensureVendor } from "@/db/settings/vendors";
import { saveWatchlist } from "@/db/notifications/watchlists";
import type { Incident } from "@/lib/incident";
import { readNowRules } from "@/lib/now-rules";
import { FEED_FORMATS, type FeedFormat } from "@/lib/render/feed";
import { ingestSnapshot } from "@/scrapers/ingest/ingest-snapshot";
import { feedRoute } from "@/server/feeds/feed-route";
import { maintenanceCalendarRoute } from "@/server/feeds/maintenance-route";
import { freshDatabase } from "@/tests/support/database";
import { makeIncident } from "@/tests/support/incidents";
import { makeTestPlatform, snapshotBody } from "@/tests/support/test-platform";

const ORIGIN = "http://redline.test";
const NOW = new Date("2026-04-05T00:00:00.000Z");
const platform = makeTestPlatform({ kind: "full" });
let db: RedlineDb;

const api = [{ id: "api", name: "API" }];
const dashboard = [{ id: "dash", name: "Dashboard" }];
const maintenanceWindow = (vendor: string, id: string, title: string, components: Incident["components"]) =>
  makeIncident({
    vendor, id, title, components, kind: "maintenance", impact: "maintenance", status: "scheduled", startedAt: null,
    scheduledFor: "2026-04-20T01:00:00.000Z", scheduledUntil: "2026-04-20T03:00:00.000Z",
  });

const acmeIncidents = [
  makeIncident({ id: "a1", title: "API errors", components: api }),
  makeIncident({ id: "d1", title: "Dashboard slow", components: dashboard }),
  maintenanceWindow("acme", "am1", "API maintenance", api),
  maintenanceWindow("acme", "dm1", "Dashboard maintenance", dashboard),
];
const globexIncidents = [makeIncident({ vendor: "globex", id: "g1", title: "Globex outage" }), maintenanceWindow("globex", "gm1", "Globex maintenance", [])];

beforeAll(async () => {
  db = await freshDatabase();
  const acme = await ensureVendor(db, { slug: "acme", name: "Acme Cloud", platform: platform.name });
  const globex = await ensureVendor(db, { slug: "globex", name: "Globex", platform: platform.name });
  await ensureVendor(db, { slug: "initech", name: "Initech", platform: platform.name });
  await ingestSnapshot(db, { vendor: acme, platform, source: "incidents.json", observedAt: "2026-04-01T00:00:00.000Z", body: snapshotBody(acmeIncidents) });
  await ingestSnapshot(db, { vendor: globex, platform, source: "incidents.json", observedAt: "2026-04-02T00:00:00.000Z", body: snapshotBody(globexIncidents) });
  const edited = globexIncidents.map((i) => (i.id === "g1" ? { ...i, status: "resolved", resolvedAt: "2026-04-03T00:00:00.000Z" } : i));
  await ingestSnapshot(db, { vendor: globex, platform, source: "incidents.json", observedAt: "2026-04-03T00:00:00.000Z", body: snapshotBody(edited) });
  await saveWatchlist(db, { name: "team", vendors: ["globex"], components: ["acme:API"] });
});

const titlesOf = (rows: ReadonlyArray<{ title: string }>) => [...new Set(rows.map((r) => r.title))].sort();

describe("the watchlist page's data", () => {
  it("lists each vendor with its Now and what it is narrowed to, and only the changes the watchlist follows, newest first", async () => {
    const page = await getWatchlistPage(db, "team", NOW, readNowRules(), null, 50);
    expect(page?.vendors.map((v) => [v.vendor.slug, v.vendor.components, v.overview?.slug])).toEqual([
      ["acme", ["API"], "acme"],
      ["globex", null, "globex"],
    ]);
    const rows = page?.changes.rows ?? [];
    expect(titlesOf(rows)).toEqual(["API errors", "API maintenance", "Globex maintenance", "Globex outage"]);
    expect(rows.map((r) => r.vendorSlug)).not.toContain("initech");
    const times = rows.map((r) => r.observedAt);
    expect(times).toEqual([...times].sort().reverse());
  });

  it("pages through the changes without repeating or skipping one", async () => {
    const whole = (await getWatchlistPage(db, "team", NOW, readNowRules(), null, 50))?.changes.rows.map((r) => r.versionId) ?? [];
    const seen: number[] = [];
    let next: string | null = null;
    do {
      const cursor: ReturnType<typeof decodeCursor> = next === null ? null : decodeCursor(next);
      const page = await getWatchlistPage(db, "team", NOW, readNowRules(), cursor, 2);
      seen.push(...(page?.changes.rows.map((r) => r.versionId) ?? []));
      next = page?.changes.next ?? null;
    } while (next !== null);
    expect(whole.length).toBeGreaterThan(2);
    expect(seen).toEqual(whole);
  });

  it("is undefined for an unknown watchlist", async () => {
    expect(await getWatchlistPage(db, "nobody", NOW, readNowRules(), null, 50)).toBeUndefined();
  });

  it("summarizes every watchlist with its vendors for /watch", async () => {
    expect((await listWatchlistSummaries(db)).map((w) => [w.name, w.vendors.map((v) => v.name)])).toEqual([["team", ["Acme Cloud", "Globex"]]]);
  });
});

async function feed(format: FeedFormat, name = "team", headers: Record<string, string> = {}) {
  return feedRoute("watchlist", format, () => db)(new Request(`${ORIGIN}/watch/${name}/feed.${format}`, { headers }), { params: Promise.resolve({ name }) });
}

async function feedTitles(format: FeedFormat): Promise<string[]> {
  const body = await (await feed(format)).text();
  if (format === "json") return (JSON.parse(body) as { items: { title: string }[] }).items.map((i) => i.title);
  return (await new Parser().parseString(body)).items.map((i) => i.title ?? "");
}

describe("the watchlist's feeds", () => {
  for (const format of FEED_FORMATS) {
    it(`carry in ${format} the watched vendors' changes, a narrowed vendor's only for its components`, async () => {
      const titles = await feedTitles(format);
      expect(titles.some((t) => t.startsWith("Acme Cloud: ") && t.endsWith(": API errors"))).toBe(true);
      expect(titles.some((t) => t.startsWith("Globex: "))).toBe(true);
      expect(titles.filter((t) => t.includes("Dashboard"))).toEqual([]);
    });
  }
  for (const format of FEED_FORMATS) {
    it(`leave out in ${format} what the vendor's own feed has of the components not watched`, async () => {
      const response = await feedRoute("vendor", format, () => db)(new Request(`${ORIGIN}/vendors/acme/feed.${format}`), { params: Promise.resolve({ slug: "acme" }) });
      const body = await response.text();
      expect(body).toContain("Dashboard slow");
      expect(await (await feed(format)).text()).not.toContain("Dashboard slow");
    });
  }

  it("name the watchlist and link its page", async () => {
    const doc = JSON.parse(await (await feed("json")).text()) as { title: string; home_page_url: string; feed_url: string };
    expect(doc).toMatchObject({ title: "Redline: watchlist team", home_page_url: `${ORIGIN}/watch/team`, feed_url: `${ORIGIN}/watch/team/feed.json` });
  });

  it("answer 304 to a reader that has the current feed", async () => {
    const first = await feed("atom");
    const again = await feed("atom", "team", { "if-none-match": first.headers.get("etag") ?? "" });
    expect(again.status).toBe(304);
  });

  it("answer an unknown watchlist with a 404 problem", async () => {
    const response = await feed("rss", "nobody");
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  });
});

async function calendar(level: "vendor" | "watchlist", name: string, headers: Record<string, string> = {}) {
  const path = level === "vendor" ? `/vendors/${name}/maintenance.ics` : `/watch/${name}/maintenance.ics`;
  const params = level === "vendor" ? { slug: name } : { name };
  return maintenanceCalendarRoute(level, () => db, () => NOW)(new Request(`${ORIGIN}${path}`, { headers }), { params: Promise.resolve(params) });
}

function events(text: string): Map<string, string> {
  const parsed = new ICAL.Component(ICAL.parse(text));
  return new Map(parsed.getAllSubcomponents("vevent").map((e) => [String(e.getFirstPropertyValue("uid")), String(e.getFirstPropertyValue("summary"))]));
}

describe("the watchlist's maintenance calendar", () => {
  it("has the watched vendors' maintenance, a narrowed vendor's only for its components, under the vendor calendars' UIDs", async () => {
    const response = await calendar("watchlist", "team");
    expect(response.headers.get("content-type")).toMatch(/^text\/calendar/);
    const watched = events(await response.text());
    expect([...watched.values()].sort()).toEqual([expect.stringContaining("API maintenance"), expect.stringContaining("Globex maintenance")]);
    const acme = events(await (await calendar("vendor", "acme")).text());
    const apiUid = [...acme].find(([, summary]) => summary.includes("API maintenance"))?.[0];
    expect(apiUid && watched.has(apiUid)).toBe(true);
    expect(events(await (await calendar("watchlist", "team")).text())).toEqual(watched);
  });

  it("answers 304 to a current client and 404 to an unknown watchlist", async () => {
    const first = await calendar("watchlist", "team");
    expect((await calendar("watchlist", "team", { "if-none-match": first.headers.get("etag") ?? "" })).status).toBe(304);
    expect((await calendar("watchlist", "nobody")).status).toBe(404);
  });
});

describe("the versions a capture recorded, for WebSub pings", () => {
  it("name the watchlists whose feeds show them: a narrowed vendor's only for its components", async () => {
    const rows = await db.connection
      .prepare<[], { captureId: number; providerId: string }>("SELECT v.capture_id AS captureId, i.provider_id AS providerId FROM incident_versions v JOIN incidents i ON i.id = v.incident_id")
      .all();
    const watchlistsOf = async (providerId: string) => {
      const row = rows.find((r) => r.providerId === providerId);
      return (await versionsOfCapture(db, row?.captureId ?? -1)).find((v) => v.providerId === providerId)?.watchlists;
    };
    expect(await watchlistsOf("a1")).toEqual(["team"]);
    expect(await watchlistsOf("d1")).toEqual([]);
    expect(await watchlistsOf("g1")).toEqual(["team"]);
  });
});
