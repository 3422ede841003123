import { describe, expect, it } from "vitest";
import type { RedlineDb } from "@/db/client";
import { queueJob } from "@/db/operations/derivation-jobs";
import { loadVendorExport } from "@/db/queries/incident-history";
import { ensureVendor, getVendorBySlug, type VendorRow } from "@/db/settings/vendors";
import type { ComponentHistory } from "@/lib/components/component-history";
import { renderExportJson } from "@/lib/export-document";
import { ingestSnapshot } from "@/scrapers/ingest/ingest-snapshot";
import { getPlatform } from "@/scrapers/platforms";
import { runPendingJobs } from "@/scrapers/rederive/job-runner";
import { freshDatabase, queryRows } from "@/tests/support/database";

const PAGE = { id: "p1", name: "Acme", url: "https://status.acme.test" };
const SUMMARY = "https://status.acme.test/api/v2/summary.json";
const COMPONENTS = "https://status.acme.test/api/v2/components.json";
const INCIDENTS = "https://status.acme.test/api/v2/incidents.json";

const component = (id: string, status: string, extra: Record<string, unknown> = {}) => ({
  id, name: id.toUpperCase(), status, updated_at: "2026-03-01T09:00:00.000Z", group_id: null, group: false, ...extra,
});
const openIncident = { id: "inc1", name: "API errors", status: "investigating", impact: "minor", created_at: "2026-03-01T10:20:00.000Z", components: [{ id: "api", name: "API" }], incident_updates: [] };

type Body = Record<string, unknown> | string;
interface Capture { platform: string; source: string; at: string; body: Body }

const summary = (at: string, components: unknown[] | undefined, incidents: unknown[] = []): Capture => ({
  platform: "statuspage-summary", source: SUMMARY, at, body: { page: PAGE, incidents, scheduled_maintenances: [], ...(components ? { components } : {}) },
});
const grid = (at: string, components: unknown[]): Capture => ({ platform: "statuspage-components", source: COMPONENTS, at, body: { page: PAGE, components } });
const incidents = (at: string, list: unknown[]): Capture => ({ platform: "statuspage-incidents", source: INCIDENTS, at, body: { page: PAGE, incidents: list } });

async function record(db: RedlineDb, vendor: VendorRow, captures: readonly Capture[]): Promise<void> {
  for (const c of captures) {
    const platform = getPlatform(c.platform);
    if (!platform) throw new Error(`no platform ${c.platform}`);
    const body = typeof c.body === "string" ? Buffer.from(c.body) : Buffer.from(JSON.stringify(c.body));
    await ingestSnapshot(db, { vendor, platform, source: c.source, observedAt: c.at, body });
  }
}

async function archive(captures: readonly Capture[]): Promise<{ db: RedlineDb; vendor: VendorRow }> {
  const db = await freshDatabase();
  const vendor = await ensureVendor(db, { slug: "acme", name: "Acme", platform: "statuspage" });
  await record(db, vendor, captures);
  return { db, vendor };
}

async function exported(db: RedlineDb): Promise<{ components: ComponentHistory[]; quiet: unknown[]; json: string }> {
  const doc = await loadVendorExport(db, "acme");
  if (!doc) throw new Error("no export");
  return { components: doc.components ?? [], quiet: doc.quietDegradations ?? [], json: renderExportJson(doc) };
}

const brief = (components: readonly ComponentHistory[]) =>
  Object.fromEntries(components.map((c) => [c.id, c.history.map((h) => `${h.status}@${h.from.slice(11, 16)}-${h.until?.slice(11, 16) ?? "now"}`)]));

async function rederive(db: RedlineDb): Promise<void> {
  const vendor = await getVendorBySlug(db, "acme");
  if (!vendor) throw new Error("no vendor");
  await queueJob(db, vendor.id, "requested", null);
  await runPendingJobs(db, { vendorId: vendor.id });
}

const T = (hhmm: string) => `2026-03-01T${hhmm}:00.000Z`;

describe("component states recorded from captures", () => {
  it("keeps a run from the first capture showing a state to the first showing another, and 1,000 unchanged polls add nothing", async () => {
    const unchanged = Array.from({ length: 1_000 }, (_, i) => summary(new Date(Date.parse(T("10:10")) + i * 1_000).toISOString(), [component("api", "degraded_performance")]));
    const { db } = await archive([summary(T("10:00"), [component("api", "operational")]), ...unchanged, summary(T("11:00"), [component("api", "operational")])]);
    expect(brief((await exported(db)).components)).toEqual({ api: ["operational@10:00-10:10", "degraded@10:10-11:00", "operational@11:00-now"] });
    expect(await queryRows(db, "SELECT id FROM component_states")).toHaveLength(3);
  });

  it("changes nothing for a failed, an invalid, or a readable snapshot without a component list", async () => {
    const { db } = await archive([
      summary(T("10:00"), [component("api", "operational"), component("web", "operational")]),
      { platform: "statuspage-summary", source: SUMMARY, at: T("10:05"), body: "" },
      { platform: "statuspage-summary", source: SUMMARY, at: T("10:06"), body: "[1, 2]" },
      summary(T("10:07"), undefined),
      summary(T("10:08"), []),
    ]);
    expect(brief((await exported(db)).components)).toEqual({ api: ["operational@10:00-now"], web: ["operational@10:00-now"] });
  });

  it("costs an unreadable component only itself: it keeps its state, the others change, and the capture warns at its path", async () => {
    const { db } = await archive([
      summary(T("10:00"), [component("api", "operational"), component("web", "operational")]),
      summary(T("10:10"), [component("api", "partial_outage"), component("web", "major_outage", { group: "no" })]),
      summary(T("10:20"), [component("api", "operational")]),
    ]);
    expect(brief((await exported(db)).components)).toEqual({ api: ["operational@10:00-10:10", "partial-outage@10:10-10:20", "operational@10:20-now"], web: ["operational@10:00-10:20"] });
    const warnings = await queryRows<{ warnings: string }>(db, "SELECT warnings FROM captures WHERE observed_at = ?", T("10:10"));
    expect(warnings[0]?.warnings).toContain("components[1].group");
  });

  it("records a removal and a reappearance, and names a component as last listed with its group's name", async () => {
    const { db } = await archive([
      summary(T("10:00"), [component("grp", "operational", { name: "Platform", group: true }), component("api", "operational", { group_id: "grp" }), component("old", "operational")]),
      summary(T("10:10"), [component("grp", "operational", { name: "Core platform", group: true }), component("api", "operational", { group_id: "grp", name: "Public API" })]),
      summary(T("10:20"), [component("grp", "operational", { name: "Core platform", group: true }), component("api", "operational", { group_id: "grp", name: "Public API" }), component("old", "degraded_performance")]),
    ]);
    const { components } = await exported(db);
    expect(brief(components)).toEqual({ grp: ["operational@10:00-now"], api: ["operational@10:00-now"], old: ["operational@10:00-10:10", "degraded@10:20-now"] });
    expect(components.find((c) => c.id === "api")).toMatchObject({ name: "Public API", group: "Core platform" });
    expect(components.find((c) => c.id === "grp")).toMatchObject({ name: "Core platform", group: null });
  });

  it("records a quiet degradation from the capture that first shows it to the one where an incident is open, and not one an incident already explains", async () => {
    const { db } = await archive([
      grid(T("10:00"), [component("api", "operational")]),
      incidents(T("10:00"), []),
      grid(T("10:10"), [component("api", "degraded_performance")]),
      incidents(T("10:30"), [openIncident]),
      grid(T("10:40"), [component("api", "partial_outage")]),
    ]);
    expect((await exported(db)).quiet).toEqual([{ from: T("10:10"), until: T("10:30"), components: ["api"] }]);
  });

  it("keeps no quiet degradation that ends at the instant it began", async () => {
    const { db } = await archive([grid(T("10:00"), [component("api", "degraded_performance")]), incidents(T("10:00"), [openIncident])]);
    expect((await exported(db)).quiet).toEqual([]);
  });

  it("applies a capture that arrives late in capture order, and a rederive gives the same export", async () => {
    const inOrder = [
      summary(T("10:00"), [component("api", "operational")]),
      summary(T("10:10"), [component("api", "degraded_performance")]),
      summary(T("10:20"), [component("api", "degraded_performance")], [openIncident]),
      summary(T("10:30"), [component("api", "operational")]),
    ];
    const { db: expected } = await archive(inOrder);
    const { db: late } = await archive([inOrder[0], inOrder[2], inOrder[3]].filter((c) => c !== undefined));
    const lateVendor = await getVendorBySlug(late, "acme");
    if (!lateVendor || !inOrder[1]) throw new Error("setup");
    await record(late, lateVendor, [inOrder[1]]);
    await runPendingJobs(late, { vendorId: lateVendor.id });
    const want = await exported(expected);
    expect(brief(want.components)).toEqual({ api: ["operational@10:00-10:10", "degraded@10:10-10:30", "operational@10:30-now"] });
    expect(want.quiet).toEqual([{ from: T("10:10"), until: T("10:20"), components: ["api"] }]);
    expect((await exported(late)).json).toBe(want.json);
    await rederive(expected);
    expect((await exported(expected)).json).toBe(want.json);
  });
});
