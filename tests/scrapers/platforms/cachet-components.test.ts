import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { cachetV2ComponentsPlatform, cachetV2GroupsPlatform, cachetV3ComponentsPlatform } from "@/scrapers/platforms/cachet-components";
import type { ParseContext, Platform } from "@/scrapers/platforms/platform";
import { snapshotRejection } from "@/tests/support/parsing";

const FIXTURES = path.join(__dirname, "..", "..", "fixtures", "cachet");
const ctx: ParseContext = { vendor: "example-cachet", source: "https://status.example-cachet.test/api/v1/components", observedAt: "2026-03-02T12:00:00.000Z" };

const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, name));
const fixtureJson = <T>(name: string): T => JSON.parse(fixture(name).toString("utf8")) as T;
const read = (platform: Platform, value: unknown) => platform.parse(new TextEncoder().encode(JSON.stringify(value)), ctx);

interface V2List {
  meta: { pagination: { current_page: number; total_pages: number; links: { next_page: string | null } } };
  data: Array<Record<string, unknown>>;
}

describe("Cachet 2 components", () => {
  it("reads each component's numbered state as Cachet names it, in its group keyed apart from the components, with its last change", async () => {
    const { grid, observations } = await cachetV2ComponentsPlatform.parse(fixture("v2-components-handwritten.json"), ctx);
    expect(observations).toEqual([]);
    expect(grid?.components.map((c) => [c.id, c.groupId, c.status, c.vendorStatus, c.vendorChangedAt])).toEqual([
      ["1", null, "operational", "Operational", "2026-03-02T08:10:00.000Z"],
      ["2", "group-1", "degraded", "Performance Issues", "2026-03-02T10:05:00.000Z"],
      ["3", "group-1", "partial-outage", "Partial Outage", "2026-03-02T10:20:00.000Z"],
      ["4", "group-2", "major-outage", "Major Outage", "2026-03-02T10:30:00.000Z"],
      ["5", "group-2", "unknown", "Unknown", "2026-01-10T09:00:00.000Z"],
    ]);
    expect(grid?.partial).toBeUndefined();
  });

  it("keeps the state of a component whose state is no number, with a warning, and warns of a number Cachet does not name", async () => {
    const { grid, warnings } = await cachetV2ComponentsPlatform.parse(fixture("v2-components-handwritten.json"), ctx);
    expect(grid?.unreadIds).toEqual(["6"]);
    expect(warnings.map((w) => w.path)).toEqual(["data[5].status"]);
    const odd = await read(cachetV2ComponentsPlatform, { data: [{ id: 9, name: "Odd", status: 7, group_id: 0 }] });
    expect(odd.grid?.components[0]).toMatchObject({ status: "unknown", vendorStatus: "7" });
    expect(odd.warnings).toEqual([{ path: "data[0].status", message: 'unknown component status "7": kept as unknown' }]);
  });

  it("takes a page that is not the last as part of the grid, which judges no component gone", async () => {
    const list = fixtureJson<V2List>("v2-components-handwritten.json");
    list.meta.pagination.total_pages = 2;
    list.meta.pagination.links.next_page = "https://status.example-cachet.test/api/v1/components?page=2";
    expect((await read(cachetV2ComponentsPlatform, list)).grid?.partial).toBe("page");
    const unreadable = await read(cachetV2ComponentsPlatform, { ...list, meta: { pagination: { total_pages: "many" } } });
    expect(unreadable.grid?.partial).toBe("page");
    expect(unreadable.warnings).toContainEqual({ path: "meta.pagination", message: "unreadable pagination: the list may go on, so no component is judged gone" });
  });

  it("reads each group as a component in the state of its worst enabled component, and keeps the state of one with none", async () => {
    const { grid } = await cachetV2GroupsPlatform.parse(fixture("v2-groups-handwritten.json"), ctx);
    expect(grid?.components).toEqual([
      { id: "group-1", name: "Public services", groupId: null, isGroup: true, status: "partial-outage", vendorStatus: "Partial Outage", vendorChangedAt: null },
      { id: "group-2", name: "Back office", groupId: null, isGroup: true, status: "major-outage", vendorStatus: "Major Outage", vendorChangedAt: null },
    ]);
    expect(grid?.unreadIds).toEqual(["group-3"]);
  });

  it("refuses a body without a data list as not the format", async () => {
    expect((await snapshotRejection(read(cachetV2ComponentsPlatform, { components: [] }))).kind).toBe("schema");
    expect((await snapshotRejection(read(cachetV2GroupsPlatform, [1, 2]))).kind).toBe("schema");
  });
});

describe("Cachet 3 components", () => {
  it("reads the state the page shows, with its open incidents and maintenances, each component in its group by name", async () => {
    const { grid, warnings } = await cachetV3ComponentsPlatform.parse(fixture("v3-components-handwritten.json"), ctx);
    expect(grid?.components.map((c) => [c.id, c.name, c.groupId, c.status, c.vendorStatus, c.vendorChangedAt])).toEqual([
      ["1", "Website", null, "operational", "Operational", "2026-03-02T08:10:00.000Z"],
      ["2", "API", "Public services", "degraded", "Performance Issues", "2026-03-02T10:05:00.000Z"],
      ["3", "Webhooks", "Public services", "partial-outage", "Partial Outage", "2026-03-02T10:20:00.000Z"],
      ["4", "Database", "Back office", "maintenance", "Under Maintenance", "2026-03-02T10:30:00.000Z"],
      ["5", "Status emails", "Back office", "unknown", "Unknown", "2026-01-10T09:00:00.000Z"],
    ]);
    // Unknown is a state Cachet 3 names itself: nothing to warn about.
    expect(warnings).toEqual([]);
    expect(grid?.partial).toBeUndefined();
  });

  it("keeps the state of a component whose group's name cannot be read, and takes a page with a next one as part of the grid", async () => {
    const list = fixtureJson<{ included: Array<{ attributes: Record<string, unknown> }>; links: Record<string, unknown> }>("v3-components-handwritten.json");
    const [publicServices] = list.included;
    if (publicServices) publicServices.attributes.name = null;
    list.links.next = "https://example-cachet.test/api/components?page=2";
    const { grid } = await read(cachetV3ComponentsPlatform, list);
    expect(grid?.unreadIds).toEqual(["2", "3"]);
    expect(grid?.partial).toBe("page");
  });

  it("judges no component gone when one has no id", async () => {
    const { grid } = await read(cachetV3ComponentsPlatform, { data: [{ type: "components", attributes: { name: "x", status: { value: 1 } } }] });
    expect(grid?.blind).toBe(true);
  });
});
