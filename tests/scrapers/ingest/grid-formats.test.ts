import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { RedlineDb } from "@/db/client";
import { queueJob } from "@/db/operations/derivation-jobs";
import { loadVendorExport } from "@/db/queries/incident-history";
import { ensureVendor, type VendorRow } from "@/db/settings/vendors";
import type { ComponentHistory, QuietDegradation } from "@/lib/components/component-history";
import { renderExportJson } from "@/lib/export-document";
import { ingestSnapshot } from "@/scrapers/ingest/ingest-snapshot";
import { getPlatform } from "@/scrapers/platforms";
import { runPendingJobs } from "@/scrapers/rederive/job-runner";
import { freshDatabase } from "@/tests/support/database";

/** Each format that states a grid, from the wire to the store: what its grid means for the history. */

const FIXTURES = path.join(__dirname, "..", "..", "fixtures");
const T = (hhmm: string) => `2026-03-02T${hhmm}:00.000Z`;

function fixtureJson<J>(file: string): J {
  return JSON.parse(fs.readFileSync(path.join(FIXTURES, file), "utf8")) as J;
}

interface Capture { platform: string; source: string; at: string; body: unknown }

async function archive(captures: readonly Capture[], platform = "statuspage"): Promise<{ db: RedlineDb; vendor: VendorRow }> {
  const db = await freshDatabase();
  const vendor = await ensureVendor(db, { slug: "acme", name: "Acme", platform });
  for (const c of captures) {
    const parser = getPlatform(c.platform);
    if (!parser) throw new Error(`no platform ${c.platform}`);
    const result = await ingestSnapshot(db, { vendor, platform: parser, source: c.source, observedAt: c.at, body: Buffer.from(JSON.stringify(c.body)) });
    expect(result.outcome, `${c.platform} at ${c.at}: ${result.error ?? ""}`).toBe("ok");
  }
  return { db, vendor };
}

async function exported(db: RedlineDb): Promise<{ components: ComponentHistory[]; quiet: QuietDegradation[]; json: string }> {
  const doc = await loadVendorExport(db, "acme");
  if (!doc) throw new Error("no export");
  return { components: doc.components ?? [], quiet: doc.quietDegradations ?? [], json: renderExportJson(doc) };
}

const brief = (components: readonly ComponentHistory[]) =>
  Object.fromEntries(components.map((c) => [c.id, c.history.map((h) => `${h.status}${h.inferred ? "(i)" : ""}@${h.from.slice(11, 16)}-${h.until?.slice(11, 16) ?? "now"}`)]));

async function rederive(db: RedlineDb, vendor: VendorRow): Promise<void> {
  await queueJob(db, vendor.id, "requested", null);
  await runPendingJobs(db, { vendorId: vendor.id });
}

describe("incident.io's widget: a grid of the affected components", () => {
  const WIDGET = "https://status.acme.test/api/v1/summary";
  const component = (id: string, status: string) => ({ id, name: id.toUpperCase(), group_name: "API", current_status: status });
  const event = (id: string, components: unknown[]) => ({
    id, name: `Incident ${id}`, status: "investigating", url: `https://status.acme.test/incidents/${id}`, last_update_at: "2026-03-02T10:00:00Z",
    last_update_message: "Looking.", current_worst_impact: "partial_outage", affected_components: components,
  });
  const widget = (at: string, ongoing: unknown[]): Capture => ({ platform: "incidentio-widget", source: WIDGET, at, body: { page_title: "Acme", ongoing_incidents: ongoing, in_progress_maintenances: [], scheduled_maintenances: [] } });

  it("records each affected component's state, puts it back to operational as inferred once no event lists it, and a rederive gives the same", async () => {
    const { db, vendor } = await archive([
      widget(T("10:00"), [event("i1", [component("search", "partial_outage"), component("web", "degraded_performance")])]),
      widget(T("10:20"), [event("i1", [component("search", "partial_outage")])]),
      widget(T("10:40"), []),
      widget(T("11:00"), [event("i2", [component("search", "full_outage")])]),
    ], "incidentio");
    const before = await exported(db);
    expect(brief(before.components)).toEqual({
      search: ["partial-outage@10:00-10:40", "operational(i)@10:40-11:00", "major-outage@11:00-now"],
      web: ["degraded@10:00-10:20", "operational(i)@10:20-now"],
    });
    expect(before.components.find((c) => c.id === "search")).toMatchObject({ name: "SEARCH", group: "API" });
    // Every degradation came with its incident.
    expect(before.quiet).toEqual([]);
    await rederive(db, vendor);
    expect((await exported(db)).json).toBe(before.json);
  });

  it("keeps a state it could not read, and takes nothing back to operational when an event cannot be read", async () => {
    const { db } = await archive([
      widget(T("10:00"), [event("i1", [component("search", "partial_outage"), component("web", "degraded_performance")])]),
      widget(T("10:20"), [event("i1", [{ ...component("search", "partial_outage"), current_status: 5 }])]),
      widget(T("10:40"), [{ name: "An event without an id" }]),
    ], "incidentio");
    expect(brief((await exported(db)).components)).toEqual({ search: ["partial-outage@10:00-now"], web: ["degraded@10:00-10:20", "operational(i)@10:20-now"] });
  });
});

describe("Cachet 2: components and groups from two endpoints", () => {
  const COMPONENTS = "https://status.acme.test/api/v1/components?per_page=500";
  const GROUPS = "https://status.acme.test/api/v1/components/groups?per_page=500";
  interface V2List { meta: { pagination: { total_pages: number; links: { next_page: string | null } } }; data: Array<Record<string, unknown>> }

  it("names each component's group by the group's own listing, which has the state of its worst component", async () => {
    const { db } = await archive([
      { platform: "cachet-v2-components", source: COMPONENTS, at: T("10:00"), body: fixtureJson("cachet/v2-components-handwritten.json") },
      { platform: "cachet-v2-groups", source: GROUPS, at: T("10:01"), body: fixtureJson("cachet/v2-groups-handwritten.json") },
    ], "cachet-v2");
    const { components, quiet } = await exported(db);
    const byId = new Map(components.map((c) => [c.id, c]));
    expect(byId.get("2")).toMatchObject({ name: "API", group: "Public services", history: [expect.objectContaining({ status: "degraded", vendorStatus: "Performance Issues", vendorChangedAt: "2026-03-02T10:05:00.000Z" })] });
    expect(byId.get("group-1")).toMatchObject({ name: "Public services", group: null, history: [expect.objectContaining({ status: "partial-outage", inferred: false })] });
    expect(byId.get("1")?.group).toBeNull();
    // Components degraded with no incident open: a quiet degradation, of the components and not their groups.
    expect(quiet).toEqual([{ from: T("10:00"), until: null, components: ["2", "3", "4"] }]);
  });

  it("judges no component gone from a page that is not the last, and ends one the whole list no longer has", async () => {
    const whole = fixtureJson<V2List>("cachet/v2-components-handwritten.json");
    const firstPage: V2List = { ...whole, data: whole.data.slice(0, 2), meta: { pagination: { ...whole.meta.pagination, total_pages: 2, links: { next_page: `${COMPONENTS}&page=2` } } } };
    const shorter: V2List = { ...whole, data: whole.data.filter((c) => c.id !== 5) };
    const { db } = await archive([
      { platform: "cachet-v2-components", source: COMPONENTS, at: T("10:00"), body: whole },
      { platform: "cachet-v2-components", source: COMPONENTS, at: T("10:10"), body: firstPage },
      { platform: "cachet-v2-components", source: COMPONENTS, at: T("10:20"), body: shorter },
    ], "cachet-v2");
    const history = brief((await exported(db)).components);
    expect(history["4"]).toEqual(["major-outage@10:00-now"]);
    expect(history["5"]).toEqual(["unknown@10:00-10:20"]);
  });
});

describe("Better Stack index.json and Instatus components.json", () => {
  it("records each Better Stack resource in its section, and ends one the page no longer lists", async () => {
    const index = fixtureJson<{ included: Array<{ id?: string; type?: string; attributes?: Record<string, unknown> }> }>("betterstack/index-handwritten.json");
    const fixed = structuredClone(index);
    for (const e of fixed.included) if (e.id === "402" && e.attributes) e.attributes.status = "operational";
    fixed.included = fixed.included.filter((e) => e.id !== "403");
    const SOURCE = "https://status.acme.test/index.json";
    const { db } = await archive([
      { platform: "betterstack-index", source: SOURCE, at: T("10:00"), body: index },
      { platform: "betterstack-index", source: SOURCE, at: T("10:30"), body: fixed },
    ], "betterstack");
    const { components } = await exported(db);
    expect(brief(components)).toEqual({ "401": ["operational@10:00-now"], "402": ["degraded@10:00-10:30", "operational@10:30-now"], "403": ["unknown@10:00-10:30"] });
    expect(components.find((c) => c.id === "401")?.group).toBe("Services");
  });

  it("records Instatus's grid beside its summary, groups by name, and a degradation while summary.json lists no incident as quiet", async () => {
    const summary = (at: string, incidents: unknown[]): Capture => ({
      platform: "instatus-summary", source: "https://status.acme.test/summary.json", at, body: { page: { name: "Acme", url: "https://status.acme.test", status: "UP" }, activeIncidents: incidents, activeMaintenances: [] },
    });
    const grid = fixtureJson<{ components: Array<Record<string, unknown>> }>("instatus/components-handwritten.json");
    const { db } = await archive([
      summary(T("10:00"), []),
      { platform: "instatus-components", source: "https://status.acme.test/v2/components.json", at: T("10:01"), body: grid },
      summary(T("10:30"), [{ name: "API errors", started: "2026-03-02T10:25:00Z", status: "INVESTIGATING", impact: "MAJOROUTAGE", url: "https://status.acme.test/incident/i1" }]),
    ], "instatus");
    const { components, quiet } = await exported(db);
    expect(components.find((c) => c.id === "cl0apieu0000001api0000001")).toMatchObject({ name: "REST API", group: "API", history: [expect.objectContaining({ status: "major-outage", vendorStatus: "MAJOROUTAGE" })] });
    expect(quiet).toEqual([{ from: T("10:01"), until: T("10:30"), components: ["cl0apieu0000001api0000001", "cl0apigq0000002api0000002", "cl0cdn000000004cdn0000004", "ckf01fvnxywz50a35nh1qzssm"].sort() }]);
  });
});

describe("a grid polled apart from the incidents, a moment after them", () => {
  const PAGE = { id: "p1", name: "Acme", url: "https://status.acme.test" };
  const incidents = (at: string, list: unknown[]): Capture => ({ platform: "statuspage-incidents", source: "https://status.acme.test/api/v2/incidents.json", at, body: { page: PAGE, incidents: list } });
  // The page object changes whenever the page does, so each read of the grid after a change is a new body.
  const grid = (at: string, status: string): Capture => ({
    platform: "statuspage-components", source: "https://status.acme.test/api/v2/components.json", at,
    body: { page: { ...PAGE, updated_at: at }, components: [{ id: "api", name: "API", status, group_id: null, group: false }] },
  });
  const incident = (status: string, resolvedAt: string | null) => ({
    id: "inc1", name: "API errors", status, impact: "minor", created_at: T("10:00"), resolved_at: resolvedAt, components: [{ id: "api", name: "API" }], incident_updates: [],
  });
  const at = (hhmm: string, seconds: number) => `2026-03-02T${hhmm}:0${seconds}.000Z`;

  it("takes a degradation posted with its incident, and one recovering as its incident resolves, for no quiet degradation", async () => {
    const { db } = await archive([
      incidents(at("10:00", 0), []), grid(at("10:00", 2), "operational"),
      incidents(at("10:01", 0), [incident("investigating", null)]), grid(at("10:01", 2), "degraded_performance"),
      incidents(at("10:02", 0), [incident("resolved", T("10:01"))]), grid(at("10:02", 2), "operational"),
    ]);
    const { components, quiet } = await exported(db);
    expect(brief(components)).toEqual({ api: ["operational@10:00-10:01", "degraded@10:01-10:02", "operational@10:02-now"] });
    expect(quiet).toEqual([]);
  });

  it("counts a component its vendor leaves degraded once the incident is resolved, from the grid that shows it so", async () => {
    const { db } = await archive([
      incidents(at("10:01", 0), [incident("investigating", null)]), grid(at("10:01", 2), "degraded_performance"),
      incidents(at("10:02", 0), [incident("resolved", T("10:01"))]), grid(at("10:02", 2), "degraded_performance"),
      incidents(at("10:03", 0), [incident("resolved", T("10:01"))]), grid(at("10:03", 2), "operational"),
    ]);
    expect((await exported(db)).quiet).toEqual([{ from: at("10:02", 2), until: at("10:03", 2), components: ["api"] }]);
  });
});
