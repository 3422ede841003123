import fs from "node:fs";
import ICAL from "ical.js";
import { beforeAll, expect, it } from "vitest";
import type { RedlineDb } from "@/db/client";
import { ensureVendor } from "@/db/settings/vendors";
import { ingestSnapshot } from "@/scrapers/ingest/ingest-snapshot";
import { getPlatform } from "@/scrapers/platforms";
import { maintenanceCalendarRoute } from "@/server/feeds/maintenance-route";
import { corpusSnapshots, describeCorpus, observedAtOf } from "@/tests/support/corpus";
import { freshDatabase } from "@/tests/support/database";

const FOLDER = "statuspage-summary-github-2025";
/** After the corpus's last GitHub maintenance window, within 90 days of its first. */
const NOW = new Date("2025-06-15T00:00:00.000Z");
let db: RedlineDb;

async function calendar(): Promise<string> {
  const route = maintenanceCalendarRoute("vendor", () => db, () => NOW);
  return (await route(new Request("http://redline.test/vendors/github/maintenance.ics"), { params: Promise.resolve({ slug: "github" }) })).text();
}

describeCorpus("the maintenance calendar of GitHub's real summary.json captures", () => {
  beforeAll(async () => {
    db = await freshDatabase();
    const platform = getPlatform("statuspage-summary");
    if (!platform) throw new Error("no statuspage-summary platform");
    const vendor = await ensureVendor(db, { slug: "github", name: "GitHub", platform: platform.name });
    for (const file of corpusSnapshots(FOLDER)) {
      await ingestSnapshot(db, { vendor, platform, source: "summary.json", observedAt: observedAtOf(file), body: fs.readFileSync(file) });
    }
  }, 120_000);

  it("lists each scheduled Codespaces maintenance once, in UTC, with its end after its start", async () => {
    const events = new ICAL.Component(ICAL.parse(await calendar())).getAllSubcomponents("vevent");
    const uids = events.map((e) => String(e.getFirstPropertyValue("uid")));
    expect(new Set(uids).size).toBe(uids.length);
    expect(uids.sort()).toEqual(["4bk60dlj4cy2", "67vdd3b7d1zq", "bs901hhxgw33", "hkp6z7kt2qm6", "nwjwwhj118sf", "xb49wskhzrm2", "znhjr4vqqcdw"].map((id) => `${id}@github.redline`));
    for (const event of events) {
      const start = event.getFirstPropertyValue("dtstart") as ICAL.Time;
      const end = event.getFirstPropertyValue("dtend") as ICAL.Time;
      expect(start.toString()).toMatch(/Z$/);
      expect(end.toJSDate().getTime()).toBeGreaterThan(start.toJSDate().getTime());
      expect(String(event.getFirstPropertyValue("summary"))).toMatch(/^GitHub: Codespaces Scheduled Maintenance$|^GitHub: Scheduled Codespaces Maintenance$/);
      // summary.json lists only active maintenances: each left it, so its last status is dated.
      expect(String(event.getFirstPropertyValue("description"))).toMatch(/^Status: \S+ \(when last listed\)\nComponents: Codespaces\n/);
    }
  });

  it("gives the same calendar, byte for byte, when rendered again", async () => {
    expect(await calendar()).toBe(await calendar());
  });
});
