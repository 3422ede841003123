import type { RedlineDb } from "@/db/client";
import { ensureVendor, type VendorRow } from "@/db/settings/vendors";
import { importSnapshots, type ImportSummary } from "@/scrapers/ingest/import-snapshots";
import { type CaptureResult, ingestSnapshot } from "@/scrapers/ingest/ingest-snapshot";
import { getPlatform } from "@/scrapers/platforms";

/**
 * Statuspage summary.json snapshots of vendors whose components degrade while no incident is
 * open: Calm Cloud (groups "Core platform" and "Europe"; a stretch that grows and ends, then one
 * still going) and Busy CDN (five short stretches of one data centre, the stream that must not
 * bury the others).
 */

export const T = (hhmm: string) => `2026-03-01T${hhmm}:00.000Z`;

type Status = "operational" | "degraded_performance" | "partial_outage" | "major_outage" | "under_maintenance";

interface Part {
  id: string;
  name: string;
  group?: string;
  isGroup?: boolean;
}

const CALM: Part[] = [
  { id: "core", name: "Core platform", isGroup: true },
  { id: "api", name: "REST API", group: "core" },
  { id: "web", name: "Dashboard", group: "core" },
  { id: "dns", name: "DNS" },
  { id: "eu", name: "Europe", isGroup: true },
  { id: "fra", name: "Frankfurt", group: "eu" },
  { id: "ams", name: "Amsterdam", group: "eu" },
];

const CDN: Part[] = [
  { id: "edge", name: "Edge network", isGroup: true },
  { id: "lhr", name: "London (LHR)", group: "edge" },
  { id: "cdg", name: "Paris (CDG)", group: "edge" },
];

export const OPEN_INCIDENT = {
  id: "inc1", name: "API errors", status: "investigating", impact: "minor", created_at: T("12:00"), updated_at: T("12:00"),
  shortlink: "https://stspg.io/x", components: [{ id: "api", name: "REST API" }], incident_updates: [],
};

function summaryBody(slug: string, parts: readonly Part[], states: Record<string, Status>, incidents: unknown[] = []): Buffer {
  const components = parts.map((p) => ({
    id: p.id, name: p.name, status: states[p.id] ?? "operational", updated_at: "2026-03-01T09:00:00.000Z", group_id: p.group ?? null, group: p.isGroup ?? false,
  }));
  const page = { id: `page-${slug}`, name: slug, url: `https://status.${slug}.test` };
  return Buffer.from(JSON.stringify({ page, components, incidents, scheduled_maintenances: [] }));
}

export interface QuietStep {
  at: string;
  states: Record<string, Status>;
  incidents?: unknown[];
}

/** Calm Cloud's captures: a stretch from 10:10 to 10:40 (REST API, then DNS too), and one from 11:00 (Frankfurt) still going. */
export const CALM_STEPS: readonly QuietStep[] = [
  { at: T("10:00"), states: {} },
  { at: T("10:10"), states: { api: "degraded_performance" } },
  { at: T("10:20"), states: { api: "degraded_performance", dns: "partial_outage" } },
  { at: T("10:40"), states: {} },
  { at: T("11:00"), states: { fra: "major_outage" } },
];

/** Busy CDN's: five stretches of London, 10:05, 10:15 … 10:45, each ten minutes after it began. */
export const CDN_STEPS: readonly QuietStep[] = [
  ...Array.from({ length: 10 }, (_, i): QuietStep => ({ at: T(`10:${String(i * 5).padStart(2, "0")}`), states: i % 2 === 1 ? { lhr: "degraded_performance" } : {} })),
  { at: T("10:50"), states: {} },
];

const platform = () => {
  const p = getPlatform("statuspage-summary");
  if (!p) throw new Error("no statuspage-summary platform");
  return p;
};

const sourceOf = (vendor: VendorRow) => `https://status.${vendor.slug}.test/api/v2/summary.json`;
const partsOf = (vendor: VendorRow) => (vendor.slug === "busy-cdn" ? CDN : CALM);

/** Import one vendor's steps as `redline import` does (notifying only when asked). */
export async function importSteps(db: RedlineDb, vendor: VendorRow, steps: readonly QuietStep[], options: { notify?: boolean } = {}): Promise<ImportSummary> {
  const snapshots = steps.map((step) => ({ label: step.at, observedAt: step.at, source: sourceOf(vendor), read: () => summaryBody(vendor.slug, partsOf(vendor), step.states, step.incidents) }));
  return importSnapshots(db, vendor, platform(), snapshots, undefined, undefined, options);
}

/** Record one vendor's steps as polls (`notify`) or as an import would (the default: no notification). */
export async function recordSteps(db: RedlineDb, vendor: VendorRow, steps: readonly QuietStep[], options: { notify?: boolean } = {}): Promise<CaptureResult[]> {
  const results: CaptureResult[] = [];
  for (const step of steps) {
    results.push(await ingestSnapshot(db, {
      vendor, platform: platform(), source: sourceOf(vendor), observedAt: step.at, body: summaryBody(vendor.slug, partsOf(vendor), step.states, step.incidents), notify: options.notify,
    }));
  }
  return results;
}

export async function quietVendor(db: RedlineDb, slug: "calm" | "busy-cdn"): Promise<VendorRow> {
  return ensureVendor(db, { slug, name: slug === "calm" ? "Calm Cloud" : "Busy CDN", platform: "statuspage-summary" });
}

/** Both vendors with all their steps recorded. */
export async function archiveQuietDegradations(db: RedlineDb): Promise<{ calm: VendorRow; cdn: VendorRow }> {
  const calm = await quietVendor(db, "calm");
  const cdn = await quietVendor(db, "busy-cdn");
  await recordSteps(db, calm, CALM_STEPS);
  await recordSteps(db, cdn, CDN_STEPS);
  return { calm, cdn };
}
