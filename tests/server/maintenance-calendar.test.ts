import ICAL from "ical.js";
import { beforeAll, describe, expect, it } from "vitest";
import type { RedlineDb } from "@/db/client";
import { ensureVendor } from "@/db/settings/vendors";
import type { Incident } from "@/lib/incident";
import { ingestSnapshot } from "@/scrapers/ingest/ingest-snapshot";
import { maintenanceCalendarRoute } from "@/server/feeds/maintenance-route";
import { archiveAcmeLifecycle } from "@/tests/support/acme-archive";
import { freshDatabase } from "@/tests/support/database";
import { makeIncident, makeUpdate } from "@/tests/support/incidents";
import { makeTestPlatform, snapshotBody } from "@/tests/support/test-platform";

const ORIGIN = "http://redline.test";
const NOW = new Date("2026-04-05T00:00:00.000Z");
const LONG_TITLE = "Planned upgrade of the primary storage cluster in every region, with a short read-only period for each tenant";
let db: RedlineDb;

function maintenance(id: string, scheduledFor: string, scheduledUntil: string, overrides: Partial<Incident> = {}): Incident {
  return makeIncident({
    vendor: "globex", id, kind: "maintenance", impact: "maintenance", status: "scheduled", startedAt: null,
    scheduledFor, scheduledUntil, url: `https://status.globex.test/incidents/${id}`, ...overrides,
  });
}

const upgrade = (scheduledFor: string, scheduledUntil: string) =>
  maintenance("up1", scheduledFor, scheduledUntil, {
    title: "Database upgrade; phase 1, part 2",
    components: [{ id: "db", name: "Database, primary" }],
    updates: [makeUpdate({ body: "We will **upgrade** the database.\n\nExpect a short pause; writes, then reads." })],
  });
const network = maintenance("net1", "2026-04-20T01:00:00.000Z", "2026-04-20T03:00:00.000Z", { title: "Network maintenance" });
const storage = maintenance("st1", "2026-05-01T00:00:00.000Z", "2026-05-01T06:00:00.000Z", { title: LONG_TITLE });
const oldWindow = maintenance("old1", "2025-11-01T00:00:00.000Z", "2025-11-01T02:00:00.000Z", { title: "Long past", status: "completed" });
const outage = makeIncident({ vendor: "globex", id: "inc9", title: "Not a maintenance" });

beforeAll(async () => {
  db = await freshDatabase();
  await archiveAcmeLifecycle(db);
  const platform = makeTestPlatform({ kind: "full" });
  const globex = await ensureVendor(db, { slug: "globex", name: "Globex", platform: platform.name });
  const steps: Array<[string, Incident[]]> = [
    ["2026-04-01T00:00:00.000Z", [upgrade("2026-04-10T22:00:00.000Z", "2026-04-11T02:00:00.000Z"), network, storage, oldWindow, outage]],
    ["2026-04-02T00:00:00.000Z", [upgrade("2026-04-12T22:00:00.000Z", "2026-04-13T02:00:00.000Z"), network, storage, oldWindow, outage]],
    ["2026-04-03T00:00:00.000Z", [upgrade("2026-04-14T22:00:00.000Z", "2026-04-15T03:00:00.000Z"), storage, oldWindow, outage]],
  ];
  for (const [observedAt, incidents] of steps) {
    await ingestSnapshot(db, { vendor: globex, platform, source: "incidents.json", observedAt, body: snapshotBody(incidents) });
  }
});

async function get(level: "all" | "vendor", slug = "globex", headers: Record<string, string> = {}) {
  const path = level === "all" ? "/maintenance.ics" : `/vendors/${slug}/maintenance.ics`;
  return maintenanceCalendarRoute(level, () => db, () => NOW)(new Request(`${ORIGIN}${path}`, { headers }), { params: Promise.resolve({ slug }) });
}

function events(text: string): Map<string, ICAL.Component> {
  const calendar = new ICAL.Component(ICAL.parse(text));
  return new Map(calendar.getAllSubcomponents("vevent").map((e) => [String(e.getFirstPropertyValue("uid")), e]));
}

describe("maintenance calendars", () => {
  it("serve text/calendar with CRLF line ends and no line over 75 octets", async () => {
    const response = await get("vendor");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
    const text = await response.text();
    expect(text.startsWith("BEGIN:VCALENDAR\r\n")).toBe(true);
    expect(text.replace(/\r\n/g, "")).not.toMatch(/[\r\n]/);
    for (const line of text.split("\r\n")) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
  });

  it("carry one event per maintenance window still in range, under a UID of provider id and vendor slug", async () => {
    const uids = [...events(await (await get("vendor")).text()).keys()].sort();
    expect(uids).toEqual(["net1@globex.redline", "st1@globex.redline", "up1@globex.redline"]);
  });

  it("keep every UID across regeneration", async () => {
    const first = [...events(await (await get("all")).text()).keys()];
    const second = [...events(await (await get("all")).text()).keys()];
    expect(second).toEqual(first);
    expect(first).toContain("up1@globex.redline");
  });

  it("raise SEQUENCE once per move of the window and keep it at 0 for one never moved", async () => {
    const byUid = events(await (await get("vendor")).text());
    expect(byUid.get("up1@globex.redline")?.getFirstPropertyValue("sequence")).toBe(2);
    expect(byUid.get("st1@globex.redline")?.getFirstPropertyValue("sequence")).toBe(0);
  });

  it("mark a maintenance the vendor deleted as cancelled and the others as confirmed", async () => {
    const byUid = events(await (await get("vendor")).text());
    expect(byUid.get("net1@globex.redline")?.getFirstPropertyValue("status")).toBe("CANCELLED");
    expect(byUid.get("up1@globex.redline")?.getFirstPropertyValue("status")).toBe("CONFIRMED");
  });

  it("give the window as moved last, in UTC", async () => {
    const text = await (await get("vendor")).text();
    expect(text).toContain("DTSTART:20260414T220000Z");
    const event = events(text).get("up1@globex.redline");
    const start = event?.getFirstPropertyValue("dtstart") as ICAL.Time;
    const end = event?.getFirstPropertyValue("dtend") as ICAL.Time;
    expect(start.toString()).toBe("2026-04-14T22:00:00Z");
    expect(end.toJSDate().toISOString()).toBe("2026-04-15T03:00:00.000Z");
  });

  it("round-trip text with commas, semicolons and line breaks", async () => {
    const event = events(await (await get("vendor")).text()).get("up1@globex.redline");
    expect(event?.getFirstPropertyValue("summary")).toBe("Globex: Database upgrade; phase 1, part 2");
    expect(event?.getFirstPropertyValue("description")).toBe(
      "Status: scheduled\nComponents: Database, primary\n\nWe will upgrade the database.\n\nExpect a short pause; writes, then reads.",
    );
  });

  it("fold a long line and unfold it to the whole text", async () => {
    const text = await (await get("vendor")).text();
    expect(text).toContain("\r\n ");
    expect(events(text).get("st1@globex.redline")?.getFirstPropertyValue("summary")).toBe(`Globex: ${LONG_TITLE}`);
  });

  it("link each event to its incident page on the archive's own address", async () => {
    const event = events(await (await get("vendor")).text()).get("up1@globex.redline");
    expect(event?.getFirstPropertyValue("url")).toBe(`${ORIGIN}/vendors/globex/incidents/up1`);
  });

  it("answer 304 to a client holding the current calendar", async () => {
    const etag = (await get("vendor")).headers.get("etag") ?? "";
    expect(etag).not.toBe("");
    expect((await get("vendor", "globex", { "if-none-match": etag })).status).toBe(304);
  });

  it("answer 404 for a vendor that does not exist", async () => {
    expect((await get("vendor", "nobody")).status).toBe(404);
  });

  it("leave out incidents and a window that ended more than 90 days ago", async () => {
    const uids = [...events(await (await get("all")).text()).keys()];
    expect(uids).not.toContain("inc9@globex.redline");
    expect(uids).not.toContain("old1@globex.redline");
  });

  it("carry a hostile vendor's title and update as plain words: no tag, no script address in any field", async () => {
    const hostile = await freshDatabase();
    const platform = makeTestPlatform({ kind: "full" });
    const vendor = await ensureVendor(hostile, { slug: "evil", name: "Evil <b>Co</b>", platform: platform.name });
    const window = maintenance("x1", "2026-04-10T22:00:00.000Z", "2026-04-11T02:00:00.000Z", {
      vendor: "evil",
      title: "<script>alert(1)</script>Outage <img src=x onerror=alert(1)>",
      updates: [makeUpdate({ body: 'Read <a href="javascript:alert(1)">x</a> and data:text/html,<script>alert(2)</script> first.' })],
    });
    await ingestSnapshot(hostile, { vendor, platform, source: "incidents.json", observedAt: "2026-04-01T00:00:00.000Z", body: snapshotBody([window]) });
    for (const level of ["all", "vendor"] as const) {
      const path = level === "all" ? "/maintenance.ics" : "/vendors/evil/maintenance.ics";
      const response = await maintenanceCalendarRoute(level, () => hostile, () => NOW)(new Request(`${ORIGIN}${path}`), { params: Promise.resolve({ slug: "evil" }) });
      const text = await response.text();
      expect(text).not.toMatch(/<[a-z/!?]|javascript:|data:text/i);
      const event = events(text).get("x1@evil.redline");
      expect(event?.getFirstPropertyValue("summary")).toBe("Evil Co: Outage");
      expect(event?.getFirstPropertyValue("description")).toBe("Status: scheduled\nComponents: API\n\nRead x and first.");
      expect(event?.getFirstPropertyValue("url")).toBe(`${ORIGIN}/vendors/evil/incidents/x1`);
    }
  });
});
