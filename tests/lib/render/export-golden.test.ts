import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { loadVendorExport } from "@/db/queries/incident-history";
import { ensureVendor } from "@/db/settings/vendors";
import { type ExportDocument, renderExportJson } from "@/lib/export-document";
import { renderExportMarkdown } from "@/lib/render/export-markdown";
import { ingestSnapshot } from "@/scrapers/ingest/ingest-snapshot";
import { getPlatform } from "@/scrapers/platforms";
import { ACME_LIFECYCLE } from "@/tests/fixtures/scenarios/acme-lifecycle";
import { freshDatabase } from "@/tests/support/database";
import { makeTestPlatform, snapshotBody } from "@/tests/support/test-platform";

const GOLDEN_DIR = path.join(__dirname, "..", "..", "fixtures", "golden");

/** Compare with the golden file; UPDATE_GOLDEN=1 rewrites it (review the diff by eye). */
function expectGolden(name: string, actual: string): void {
  const file = path.join(GOLDEN_DIR, name);
  if (process.env.UPDATE_GOLDEN === "1") fs.writeFileSync(file, actual);
  expect(actual).toBe(fs.readFileSync(file, "utf8"));
}

describe("exports of a hand-written lifecycle", () => {
  let doc: ExportDocument;
  beforeAll(async () => {
    const db = await freshDatabase();
    const platform = makeTestPlatform({ kind: "recent", limit: 25 });
    const vendor = await ensureVendor(db, { slug: "acme", name: "Acme Cloud", platform: platform.name });
    for (const step of ACME_LIFECYCLE) {
      await ingestSnapshot(db, { vendor, platform, source: "incidents.json", observedAt: step.at, body: snapshotBody(step.incidents) });
    }
    const loaded = await loadVendorExport(db, "acme");
    if (!loaded) throw new Error("vendor missing");
    doc = loaded;
  });

  it("renders the Markdown history exactly as the golden file", () => {
    expectGolden("acme-export.md", renderExportMarkdown(doc));
  });

  it("renders the JSON export exactly as the golden file", () => {
    expectGolden("acme-export.json", renderExportJson(doc));
  });

  it("finds each edit of the lifecycle with the right kind", () => {
    const kinds = (id: string) => doc.incidents.find((i) => i.id === id)?.versions.map((v) => v.kinds);
    expect(kinds("k3x9")).toEqual([
      ["incident-new"],
      ["impact-escalated", "components-changed", "status-changed", "update-posted"],
      ["update-edited"],
      ["incident-resolved", "status-changed", "update-posted"],
      ["impact-downgraded"],
      ["postmortem-published", "status-changed"],
      ["postmortem-edited"],
    ]);
    expect(kinds("m7q2")).toEqual([["incident-new"], ["rescheduled"]]);
    expect(kinds("d404")).toEqual([["incident-new"], ["incident-deleted"]]);
  });

  it("never lets vendor text become Markdown markup", () => {
    const md = renderExportMarkdown(doc);
    const outsideFences = md.replace(/^(`{3,})text\n[\s\S]*?\n\1$/gm, "");
    expect(outsideFences).not.toMatch(/(^|[^\\])(!\[|<script|<b>)/m);
    expect(md).toContain("![tracker](https://evil.test/pixel.png)");
    expect(md).toContain("Database upgrade \\| \"primary\" \\<cluster\\>");
    expect(md).toContain("````text");
  });
});

/** A summary.json grid over a morning: a group, a rename, a removal, a state an incident explains, a quiet degradation, markup in a name. */
const GRID_PAGE = { id: "p1", name: "Grid Co", url: "https://status.grid.test" };
const part = (id: string, name: string, status: string, extra: Record<string, unknown> = {}) => ({
  id, name, status, updated_at: "2026-03-01T09:00:00.000Z", group_id: null, group: false, ...extra,
});
const GRID_INCIDENT = {
  id: "inc1", name: "Dashboard errors", status: "investigating", impact: "minor", created_at: "2026-03-01T11:00:00.000Z", updated_at: "2026-03-01T11:00:00.000Z",
  components: [{ id: "web", name: "Web | *dashboard*" }],
  incident_updates: [{ id: "u1", status: "investigating", body: "We are looking into errors.", created_at: "2026-03-01T11:00:00.000Z", display_at: "2026-03-01T11:00:00.000Z" }],
};
const GRID_STEPS: ReadonlyArray<{ at: string; components: unknown[]; incidents?: unknown[] }> = [
  { at: "10:00", components: [part("core", "Core", "operational", { group: true }), part("api", "REST API", "operational", { group_id: "core" }), part("web", "Web | *dashboard*", "operational", { group_id: "core" }), part("old", "Legacy API", "operational")] },
  { at: "10:10", components: [part("core", "Core", "degraded_performance", { group: true }), part("api", "REST API", "degraded_performance", { group_id: "core" }), part("web", "Web | *dashboard*", "operational", { group_id: "core" }), part("old", "Legacy API", "operational")] },
  { at: "10:40", components: [part("core", "Core platform", "operational", { group: true }), part("api", "Public API", "operational", { group_id: "core" }), part("web", "Web | *dashboard*", "operational", { group_id: "core" })] },
  { at: "11:00", components: [part("core", "Core platform", "partial_outage", { group: true }), part("api", "Public API", "operational", { group_id: "core" }), part("web", "Web | *dashboard*", "partial_outage", { group_id: "core" })], incidents: [GRID_INCIDENT] },
];

describe("exports of a vendor whose page states its components", () => {
  let doc: ExportDocument;
  beforeAll(async () => {
    const db = await freshDatabase();
    const platform = getPlatform("statuspage-summary");
    if (!platform) throw new Error("no platform");
    const vendor = await ensureVendor(db, { slug: "grid", name: "Grid Co", platform: platform.name });
    for (const step of GRID_STEPS) {
      const body = Buffer.from(JSON.stringify({ page: GRID_PAGE, components: step.components, incidents: step.incidents ?? [], scheduled_maintenances: [] }));
      await ingestSnapshot(db, { vendor, platform, source: "summary.json", observedAt: `2026-03-01T${step.at}:00.000Z`, body });
    }
    const loaded = await loadVendorExport(db, "grid");
    if (!loaded) throw new Error("vendor missing");
    doc = loaded;
  });

  it("renders the components, each with its state now and its states, and the quiet degradations, exactly as the golden file", () => {
    expectGolden("grid-export.md", renderExportMarkdown(doc));
  });

  it("renders the JSON export exactly as the golden file", () => {
    expectGolden("grid-export.json", renderExportJson(doc));
  });

  it("escapes the vendor's component names in tables and headings", () => {
    const md = renderExportMarkdown(doc);
    expect(md).toContain("### Web \\| \\*dashboard\\*");
    expect(md).not.toMatch(/[^\\]\|[^|]*\*dashboard/);
  });
});
