import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { instatusComponentsPlatform } from "@/scrapers/platforms/instatus-components";
import type { ParseContext } from "@/scrapers/platforms/platform";
import { snapshotRejection } from "@/tests/support/parsing";

const FIXTURE = path.join(__dirname, "..", "..", "fixtures", "instatus", "components-handwritten.json");
const ctx: ParseContext = { vendor: "example-is", source: "https://status.example-is.test/v2/components.json", observedAt: "2026-03-02T12:00:00.000Z" };

function read(value: unknown) {
  return instatusComponentsPlatform.parse(new TextEncoder().encode(JSON.stringify(value)), ctx);
}

describe("Instatus components.json", () => {
  it("reads each component's state in the shared vocabulary with Instatus's word beside it, grouped by the group's name", async () => {
    const { grid, observations } = await instatusComponentsPlatform.parse(fs.readFileSync(FIXTURE), ctx);
    expect(observations).toEqual([]);
    expect(grid?.components.map((c) => [c.id, c.name, c.groupId, c.status, c.vendorStatus])).toEqual([
      ["ckf01fvnxywz60a35wdbn5gz5", "App", null, "operational", "OPERATIONAL"],
      ["ckf01fvnxywz50a35nh1qzssm", "Website", null, "degraded", "DEGRADEDPERFORMANCE"],
      ["cl0apieu0000001api0000001", "REST API", "API", "major-outage", "MAJOROUTAGE"],
      ["cl0apigq0000002api0000002", "GraphQL API", "API", "partial-outage", "MINOROUTAGE"],
      ["cl0dbmnt0000003db00000003", "Database", "Infrastructure", "maintenance", "UNDERMAINTENANCE"],
      ["cl0cdn000000004cdn0000004", "CDN", "Infrastructure", "partial-outage", "PARTIALOUTAGE"],
      ["cl0legacy0000005legacy005", "Legacy <b>uploads</b>", null, "unknown", "SUNSETTING"],
    ]);
    expect(grid?.components.every((c) => !c.isGroup && c.vendorChangedAt === null)).toBe(true);
  });

  it("keeps an unknown word as unknown with a warning, and a component whose state cannot be read keeps its state", async () => {
    const { grid, warnings } = await instatusComponentsPlatform.parse(fs.readFileSync(FIXTURE), ctx);
    expect(warnings).toContainEqual({ path: "components[6].status", message: 'unknown component status "SUNSETTING": kept as unknown' });
    expect(warnings.some((w) => w.path === "components[7].status")).toBe(true);
    expect(grid?.unreadIds).toEqual(["cl0broken0000006broken006"]);
    expect(grid?.blind).toBe(false);
  });

  it("judges no component gone when one has no id, and states no grid when the list is empty", async () => {
    const blind = await read({ components: [{ name: "No id", status: "OPERATIONAL" }, { id: "a", name: "A", status: "OPERATIONAL", group: null }] });
    expect(blind.grid?.blind).toBe(true);
    expect(blind.grid?.components.map((c) => c.id)).toEqual(["a"]);
    expect((await read({ components: [] })).grid).toBeUndefined();
  });

  it("keeps the state of a component whose group cannot be read", async () => {
    const { grid } = await read({ components: [{ id: "a", name: "A", status: "OPERATIONAL", group: 5 }] });
    expect(grid).toEqual({ components: [], unreadIds: ["a"], blind: false });
  });

  it("refuses a body without a component list as not the format", async () => {
    expect((await snapshotRejection(read({ page: { name: "x" }, activeIncidents: [] }))).kind).toBe("schema");
  });
});
