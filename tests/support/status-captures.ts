import type { RedlineDb } from "@/db/client";
import type { VendorRow } from "@/db/settings/vendors";
import { ingestSnapshot } from "@/scrapers/ingest/ingest-snapshot";
import { getPlatform } from "@/scrapers/platforms";

/** Hand-made Statuspage captures of one vendor, for tests of what its grid and incidents give over time. */

export const PAGE = { id: "p1", name: "Acme", url: "https://status.acme.test" };
export const SUMMARY = "https://status.acme.test/api/v2/summary.json";
export const COMPONENTS = "https://status.acme.test/api/v2/components.json";
export const INCIDENTS = "https://status.acme.test/api/v2/incidents.json";

export type Body = Record<string, unknown> | string;
export interface Capture { platform: string; source: string; at: string; body: Body }

export const component = (id: string, status: string, extra: Record<string, unknown> = {}) => ({
  id, name: id.toUpperCase(), status, updated_at: "2026-03-01T09:00:00.000Z", group_id: null, group: false, ...extra,
});

export const summary = (at: string, components: unknown[] | undefined, incidents: unknown[] = []): Capture => ({
  platform: "statuspage-summary", source: SUMMARY, at, body: { page: PAGE, incidents, scheduled_maintenances: [], ...(components ? { components } : {}) },
});
export const grid = (at: string, components: unknown[]): Capture => ({ platform: "statuspage-components", source: COMPONENTS, at, body: { page: PAGE, components } });
export const incidents = (at: string, list: unknown[]): Capture => ({ platform: "statuspage-incidents", source: INCIDENTS, at, body: { page: PAGE, incidents: list } });
export const failedSummary = (at: string): Capture => ({ platform: "statuspage-summary", source: SUMMARY, at, body: "" });

/** A Statuspage incident as its JSON API states it. */
export function statuspageIncident(id: string, o: { status: string; impact?: string; startedAt: string; components: string[]; updates: Array<{ id: string; status?: string; at: string; createdAt?: string }>; resolvedAt?: string | null }) {
  return {
    id, name: `Incident ${id}`, status: o.status, impact: o.impact ?? "minor", created_at: o.startedAt, started_at: o.startedAt, updated_at: o.startedAt,
    resolved_at: o.resolvedAt ?? null, shortlink: `https://stspg.io/${id}`,
    components: o.components.map((c) => ({ id: c, name: c.toUpperCase() })),
    incident_updates: o.updates.map((u) => ({ id: u.id, status: u.status ?? o.status, body: `Update ${u.id}`, created_at: u.createdAt ?? u.at, display_at: u.at, updated_at: u.at })),
  };
}

export async function recordCaptures(db: RedlineDb, vendor: VendorRow, captures: readonly Capture[]): Promise<void> {
  for (const c of captures) {
    const platform = getPlatform(c.platform);
    if (!platform) throw new Error(`no platform ${c.platform}`);
    const body = typeof c.body === "string" ? Buffer.from(c.body) : Buffer.from(JSON.stringify(c.body));
    await ingestSnapshot(db, { vendor, platform, source: c.source, observedAt: c.at, body });
  }
}
