import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { ParseContext } from "@/scrapers/platforms/platform";
import { statuspageComponentsPlatform } from "@/scrapers/platforms/statuspage-components";
import { statuspageSummaryPlatform } from "@/scrapers/platforms/statuspage-summary";
import { corpusSnapshots, describeCorpus } from "@/tests/support/corpus";

const ctx: ParseContext = { vendor: "example", source: "components.json", observedAt: "2024-07-01T12:00:00.000Z" };
const FIXTURE = path.join(__dirname, "..", "..", "fixtures", "statuspage", "components-groups-handwritten.json");

function json(value: unknown): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(value));
}

describe("Statuspage component grids", () => {
  it("reads each component's state in the shared vocabulary, the vendor's word and time beside it, groups as components", async () => {
    const { grid, observations } = await statuspageComponentsPlatform.parse(fs.readFileSync(FIXTURE), ctx);
    expect(observations).toEqual([]);
    const byId = new Map(grid?.components.map((c) => [c.id, c]));
    expect(byId.get("grp0compute1")).toEqual({
      id: "grp0compute1", name: "Compute", groupId: null, isGroup: true, status: "partial-outage", vendorStatus: "partial_outage", vendorChangedAt: "2024-07-01T11:41:00.120Z",
    });
    expect(byId.get("cmpvms000001")).toMatchObject({ groupId: "grp0compute1", isGroup: false, status: "partial-outage" });
    expect(byId.get("cmpdns000003")?.status).toBe("degraded");
    expect(byId.get("cmpbill00004")?.status).toBe("maintenance");
    expect(byId.get("cmpcdn000007")?.status).toBe("major-outage");
    expect(byId.get("cmpfunc00002")?.status).toBe("operational");
  });

  it("keeps an unknown word as unknown, never operational, and warns at its path", async () => {
    const { grid, warnings } = await statuspageComponentsPlatform.parse(fs.readFileSync(FIXTURE), ctx);
    expect(grid?.components.find((c) => c.id === "cmplegacy005")).toMatchObject({ status: "unknown", vendorStatus: "sunsetting" });
    expect(warnings).toContainEqual({ path: "components[5].status", message: 'unknown component status "sunsetting": kept as unknown' });
  });

  it("leaves out a component whose state cannot be read, keeping its id so that it keeps its state", async () => {
    const { grid, warnings } = await statuspageComponentsPlatform.parse(fs.readFileSync(FIXTURE), ctx);
    expect(grid?.components.some((c) => c.id === "cmpbroken006")).toBe(false);
    expect(grid?.unreadIds).toEqual(["cmpbroken006"]);
    expect(grid?.blind).toBe(false);
    expect(warnings.some((w) => w.path === "components[6].status")).toBe(true);
  });

  it("judges no component gone from a grid listing one whose id cannot be read", async () => {
    const { grid } = await statuspageComponentsPlatform.parse(json({ components: [{ name: "No id", status: "operational" }, { id: "a1", name: "A", status: "operational" }] }), ctx);
    expect(grid?.blind).toBe(true);
    expect(grid?.components.map((c) => c.id)).toEqual(["a1"]);
  });

  it("states no grid when the list is missing or empty: such a snapshot removes nothing", async () => {
    const summary = { page: { id: "p", name: "P", url: "https://p.test" }, incidents: [], scheduled_maintenances: [] };
    expect((await statuspageSummaryPlatform.parse(json(summary), ctx)).grid).toBeUndefined();
    expect((await statuspageSummaryPlatform.parse(json({ ...summary, components: [] }), ctx)).grid).toBeUndefined();
    const broken = await statuspageSummaryPlatform.parse(json({ ...summary, components: "none" }), ctx);
    expect(broken.grid).toBeUndefined();
    expect(broken.warnings).toContainEqual({ path: "components", message: "expected a list of components, got string" });
  });

  it("refuses a components.json without a components list as not the format", async () => {
    await expect(statuspageComponentsPlatform.parse(json({ page: {} }), ctx)).rejects.toMatchObject({ kind: "schema" });
  });
});

describeCorpus("Statuspage summary.json grids in the corpus", () => {
  it("reads every component of every GitHub, Jira and Trello snapshot, without a warning", async () => {
    let read = 0;
    for (const folder of ["statuspage-summary-github-2025", "statuspage-summary-jira", "statuspage-summary-trello-nonutc"]) {
      for (const file of corpusSnapshots(folder)) {
        const body = fs.readFileSync(file);
        if (body.length === 0) continue;
        const parsed = await statuspageSummaryPlatform.parse(body, { vendor: folder, source: file, observedAt: "2026-01-01T00:00:00.000Z" });
        const listed = (JSON.parse(body.toString("utf8")) as { components: unknown[] }).components.length;
        expect(parsed.grid?.components.length).toBe(listed);
        expect(parsed.warnings).toEqual([]);
        read += listed;
      }
    }
    expect(read).toBeGreaterThan(5_000);
  });
});
