import { describe, expect, it } from "vitest";
import { getPlatform } from "@/scrapers/platforms";
import { WIRE_FORMATS } from "@/simulator/formats";
import { readBackAll, type VendorView, type WireFormat } from "@/simulator/formats/wire-format";
import { createScenario, cycleOf, lifecycleEvents } from "@/simulator/scenario";
import { CYCLE_MS } from "@/simulator/scenario-script";
import { viewAt } from "@/simulator/world";
import { byId, carried, statedKeys } from "@/tests/simulator/carried";

const BASE_URL = "http://127.0.0.1:40000";
const scenario = createScenario("acme", 3, BASE_URL);
const vendor = { slug: "acme", name: "Acme Cloud", baseUrl: BASE_URL, scenario };
const cycleStart = cycleOf(scenario, 0).startMs;
/** Just after every scripted event of one cycle: each stage of every lifecycle. */
const SAMPLE_TIMES = lifecycleEvents(scenario, cycleStart, cycleStart + CYCLE_MS - 1).map((e) => Date.parse(e.at) + 1000);

/** The paths one format is served at, for a vendor showing `view`. */
function pathsOf(format: WireFormat, view: VendorView): string[] {
  if (format.parser === "statuspage-incident") return view.incidents.map((i) => `/api/v2/incidents/${i.id}.json`);
  if (format.parser === "statuspage-incident-page") return view.incidents.map((i) => `/incidents/${i.id}`);
  if (format.parser === "statuspage-incidents") return ["/api/v2/incidents.json", "/api/v2/scheduled-maintenances.json"];
  return [format.defaultPath?.(view) ?? "/"];
}

const byComponentId = (a: { id: string }, b: { id: string }): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Formats that publish postmortems: the round trip must have carried some. */
const CARRY_POSTMORTEMS = new Set(["statuspage-incidents", "statuspage-incident", "statuspage-atom", "statuspage-rss", "statuspage-incident-page", "gcp"]);

const parsable = WIRE_FORMATS.filter((f) => getPlatform(f.parser) !== undefined);

describe("wire formats", () => {
  it("cover every parser the simulated families poll", () => {
    const names = WIRE_FORMATS.map((f) => f.parser);
    for (const parser of [
      "statuspage-incidents", "statuspage-summary", "statuspage-incident", "statuspage-atom", "statuspage-rss", "gcp", "slack", "slack-history", "aws-legacy",
      "incidentio-incidents", "incidentio-feed", "instatus-summary", "betterstack-index", "betterstack-rss", "cachet-v2", "cachet-v3", "azure-rss", "rss",
      "statuspage-components", "incidentio-widget", "instatus-components", "cachet-v2-components", "cachet-v2-groups", "cachet-v3-components",
    ]) {
      expect(names).toContain(parser);
      expect(getPlatform(parser)).toBeDefined();
    }
  });

  it.each(parsable.map((f) => [f.parser, f] as const))("%s reads back, through Redline's own parser, every field and component state it carries at every stage of a cycle", async (_, format) => {
    const platform = getPlatform(format.parser);
    if (!platform) throw new Error(`no parser ${format.parser}`);
    let compared = 0;
    let postmortems = 0;
    for (const time of SAMPLE_TIMES) {
      const view = viewAt(vendor, time);
      const observedAt = new Date(time).toISOString();
      for (const path of pathsOf(format, view)) {
        const listed = format.select(view, path);
        if (listed === null) continue;
        const body = new TextEncoder().encode(format.render(listed, view, path));
        const snapshot = await platform.parse(body, { vendor: "acme", source: BASE_URL + path, observedAt });
        const parsed = snapshot.observations.map((o) => o.incident);
        const expected = readBackAll(format, listed, view).map((i) => carried(i, statedKeys(platform))).sort(byId);
        expect(parsed.map((i) => carried(i, statedKeys(platform))).sort(byId), `${path} at ${observedAt}`).toEqual(expected);
        if (format.readBackGrid) {
          const grid = format.readBackGrid(listed, view);
          expect([...(snapshot.grid?.components ?? [])].sort(byComponentId), `grid of ${path} at ${observedAt}`).toEqual(grid.sort(byComponentId));
          compared += grid.length;
        } else {
          expect(snapshot.grid, `${path} at ${observedAt}`).toBeUndefined();
        }
        compared += parsed.length;
        postmortems += parsed.filter((i) => i.postmortem !== null).length;
      }
    }
    expect(compared).toBeGreaterThan(0);
    if (CARRY_POSTMORTEMS.has(format.parser)) expect(postmortems).toBeGreaterThan(0);
  });
});
