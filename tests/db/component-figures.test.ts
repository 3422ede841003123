import { describe, expect, it } from "vitest";
import { loadComponentFigureFacts } from "@/db/queries/component-figures";
import { ensureVendor } from "@/db/settings/vendors";
import { platformProfileOf } from "@/lib/platform-profiles";
import { computeVendorFigures } from "@/lib/vendor-figures";
import { freshDatabase } from "@/tests/support/database";
import { component, grid, incidents, recordCaptures, statuspageIncident } from "@/tests/support/status-captures";

const MIN = 60_000;
const T = (hhmm: string) => `2026-03-01T${hhmm}:00.000Z`;
const rules = { profileOf: platformProfileOf, defaultIntervalMs: 10 * MIN };
const PERIOD = { from: T("00:00"), to: "2026-03-02T00:00:00.000Z" };
const NOW = new Date(T("11:20"));

const inc = statuspageIncident("inc1", { status: "investigating", startedAt: T("10:25"), components: ["api"], updates: [{ id: "u1", at: T("10:25") }] });

describe("a vendor's component figures from the store", () => {
  it("reads the grid's runs, the captures that watched it, the quiet degradations and the incidents naming components", async () => {
    const db = await freshDatabase();
    const vendor = await ensureVendor(db, { slug: "acme", name: "Acme", platform: "statuspage" });
    await recordCaptures(db, vendor, [
      grid(T("10:00"), [component("grp", "operational", { group: true, name: "Platform" }), component("api", "operational", { group_id: "grp" })]),
      incidents(T("10:00"), []),
      grid(T("10:10"), [component("grp", "operational", { group: true, name: "Platform" }), component("api", "partial_outage", { group_id: "grp" })]),
      grid(T("10:30"), [component("grp", "operational", { group: true, name: "Platform" }), component("api", "partial_outage", { group_id: "grp" })]),
      incidents(T("10:30"), [inc]),
      grid(T("10:50"), [component("grp", "operational", { group: true, name: "Platform" }), component("api", "operational", { group_id: "grp" })]),
      grid(T("11:10"), [component("grp", "operational", { group: true, name: "Platform" }), component("api", "operational", { group_id: "grp" })]),
    ]);
    const facts = await loadComponentFigureFacts(db, vendor, PERIOD, NOW, rules);
    expect([facts.knowledge, facts.quietDegradations, facts.incidents]).toEqual(["stated", 1, [{ firstSeenAt: T("10:30"), startedAt: T("10:25"), components: [{ id: "api", name: "API" }] }]]);
    const f = computeVendorFigures([], PERIOD, undefined, facts).components;
    if (!f?.known) throw new Error("expected component figures");
    expect(f.groups.map((g) => [g.name, g.degradedMs / MIN, g.outageMs / MIN])).toEqual([["Platform", 40, 40]]);
    expect(f.observedMs).toBe(80 * MIN);
    expect(f.lag).toEqual({ naming: 1, withLag: 1, medianBeforeSightingMs: 20 * MIN });
  });

  it("knows no grid of a vendor whose feeds state none", async () => {
    const db = await freshDatabase();
    const vendor = await ensureVendor(db, { slug: "acme", name: "Acme", platform: "statuspage" });
    await recordCaptures(db, vendor, [incidents(T("10:30"), [inc])]);
    const facts = await loadComponentFigureFacts(db, vendor, PERIOD, NOW, rules);
    expect(facts.knowledge).toBeNull();
    expect(computeVendorFigures([], PERIOD, undefined, facts).components).toEqual({ known: false });
  });
});
