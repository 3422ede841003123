import { describe, expect, it } from "vitest";
import type { ComponentReading } from "@/lib/components/component-grid";
import { plannedEndpoints } from "@/scrapers/live/live-platform";
import { getPlatform } from "@/scrapers/platforms";
import { getWireFormat } from "@/simulator/formats";
import { readBackAll } from "@/simulator/formats/wire-format";
import { lifecycleEvents } from "@/simulator/scenario";
import { CYCLE_MS } from "@/simulator/scenario-script";
import { startSimulator } from "@/simulator/server";
import { defaultFamilies, servableFamilies, type SimVendor, viewAt } from "@/simulator/world";
import { byId, carried, statedKeys } from "@/tests/simulator/carried";
import { fetchRaw } from "@/tests/simulator/http-client";

const START = "2026-03-04T00:00:00.000Z";
/** Families polled from a base URL: generated vendors take them by default. */
const BASE_URL_FAMILIES = ["incidentio", "instatus", "betterstack", "cachet-v2", "cachet-v3", "azure", "aws"];
/** Formats at an exact URL, stating only some fields: servable, not a default. */
const EXACT_URL_FAMILIES = ["rss", "incidentio-widget"];

/** Just after the vendor's next incident escalates: it is open, and older ones are listed too. */
function openIncidentTime(vendor: SimVendor): number {
  const from = Date.parse(START);
  const escalated = lifecycleEvents(vendor.scenario, from, from + CYCLE_MS).find((e) => e.kind === "impact-escalated");
  if (!escalated) throw new Error(`no escalation within a cycle for ${vendor.slug}`);
  return Date.parse(escalated.at) + 1000;
}

describe("simulated families", () => {
  it("serve every family Redline polls beyond Statuspage, Google Cloud and Slack, and take those polled from a base URL by default", () => {
    expect(servableFamilies()).toEqual(expect.arrayContaining([...BASE_URL_FAMILIES, ...EXACT_URL_FAMILIES]));
    expect(defaultFamilies()).toEqual(expect.arrayContaining(BASE_URL_FAMILIES));
    for (const family of EXACT_URL_FAMILIES) expect(defaultFamilies()).not.toContain(family);
  });

  it.each([...BASE_URL_FAMILIES, ...EXACT_URL_FAMILIES])(
    "%s: a vendor serves its live plan's endpoints, fallbacks and grid over HTTP, each read by Redline's parser as what the vendor shows",
    async (family) => {
      const slug = `e2e-${family}`;
      const sim = await startSimulator({ vendors: [{ slug, family }], acceleration: 0, start: START, seed: 11, control: false });
      try {
        const vendor = sim.vendor(slug);
        const now = openIncidentTime(vendor);
        sim.setClock(new Date(now).toISOString());
        const endpoints = plannedEndpoints(vendor.live.plan(new URL(vendor.url)));
        expect(endpoints.length).toBeGreaterThan(0);
        const stated: ComponentReading[] = [];
        for (const endpoint of endpoints) {
          const res = await fetchRaw(endpoint.url);
          expect(res.status, endpoint.url).toBe(200);
          const parser = getPlatform(endpoint.platform);
          const format = getWireFormat(endpoint.platform);
          if (!parser || !format) throw new Error(`no parser or format for ${endpoint.platform}`);
          expect(res.headers["content-type"]).toBe(format.contentType);
          const snapshot = await parser.parse(res.body, { vendor: slug, source: endpoint.url, observedAt: sim.now() });
          const parsed = snapshot.observations.map((o) => o.incident);
          const view = viewAt(vendor, now);
          const listed = format.select(view, new URL(endpoint.url).pathname) ?? [];
          if (format.listsIncidents !== false) expect(parsed.length, endpoint.url).toBeGreaterThan(0);
          const expected = readBackAll(format, listed, view).map((i) => carried(i, statedKeys(parser))).sort(byId);
          expect(parsed.map((i) => carried(i, statedKeys(parser))).sort(byId), endpoint.url).toEqual(expected);
          if (format.readBackGrid) {
            const grid = snapshot.grid?.components ?? [];
            expect(grid.length, endpoint.url).toBeGreaterThan(0);
            expect([...grid].sort(byId), endpoint.url).toEqual(format.readBackGrid(listed, view).sort(byId));
            stated.push(...grid);
          }
        }
        if (stated.length > 0) {
          const open = viewAt(vendor, now).incidents.find((i) => i.kind === "incident" && i.status !== "resolved" && i.status !== "postmortem");
          // By name: Cachet numbers its components its own way.
          const named = new Set(open?.components.map((c) => c.name));
          expect(stated.some((c) => !c.isGroup && named.has(c.name) && c.status !== "operational"), "the open incident degrades what it names").toBe(true);
        }
        expect((await fetchRaw(`${vendor.baseUrl}/api/v2/nothing.json`)).status).toBe(404);
      } finally {
        await sim.stop();
      }
    },
  );
});
