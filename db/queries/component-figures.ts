import type { Connection, RedlineDb } from "@/db/driver/database";
import { loadGridObservations } from "@/db/queries/grid-watch";
import { statementsFor } from "@/db/driver/prepared";
import { ACKNOWLEDGMENT_WINDOW_MS } from "@/lib/components/acknowledgment-lag";
import type { FigureRun } from "@/lib/components/component-figures";
import { gridSourcesOf } from "@/lib/components/component-page";
import type { ComponentStatus } from "@/lib/components/component-status";
import { longestWatchedGap } from "@/lib/components/observed-time";
import type { Component } from "@/lib/incident";
import type { NowRules } from "@/lib/now-rules";
import type { GridFigureFacts } from "@/lib/vendor-figures";

const statements = statementsFor((c: Connection) => ({
  sources: c.prepare<[number], { source: string; platform: string }>(`SELECT url AS "source", platform FROM sources WHERE vendor_id = ?`),
  runs: c.prepare<[number, string, string], Omit<FigureRun, "isGroup" | "inferred" | "status"> & { isGroup: number; inferred: number; status: string }>(
    `SELECT c.component_key AS "componentId", s.name, s.group_key AS "groupId", s.is_group AS "isGroup", s.status, s.inferred, s.from_at AS "from", s.until_at AS "until"
     FROM component_states s JOIN components c ON c.id = s.component_id
     WHERE s.vendor_id = ? AND s.from_at < ? AND (s.until_at IS NULL OR s.until_at > ?)`,
  ),
  quiet: c.prepare<[number, string, string], { n: number }>(`SELECT count(*) AS "n" FROM quiet_degradations WHERE vendor_id = ? AND from_at >= ? AND from_at < ?`),
  incidents: c.prepare<[number, string, string], { id: number; firstSeenAt: string; startedAt: string | null }>(
    `SELECT id, first_seen_at AS "firstSeenAt", started_at AS "startedAt" FROM incidents WHERE vendor_id = ? AND kind = 'incident' AND started_at >= ? AND started_at < ?`,
  ),
  named: c.prepare<[number, string, string], { incidentId: number; componentId: string; name: string }>(
    `SELECT ic.incident_id AS "incidentId", ic.component_id AS "componentId", ic.name FROM incident_components ic JOIN incidents i ON i.id = ic.incident_id
     WHERE i.vendor_id = ? AND i.kind = 'incident' AND i.started_at >= ? AND i.started_at < ?`,
  ),
}));

/**
 * What a vendor's component figures over [from, to) are computed from: its grid's runs and the
 * captures that say when it was watched, its quiet degradations, and its incidents with the
 * components they name. A vendor whose feeds state no grid gets `knowledge: null` and nothing else.
 */
export async function loadComponentFigureFacts(
  db: RedlineDb,
  vendor: { id: number; intervalSeconds: number | null },
  period: { from: string; to: string },
  now: Date,
  rules: NowRules,
): Promise<GridFigureFacts> {
  const st = statements(db);
  const intervalMs = vendor.intervalSeconds ? vendor.intervalSeconds * 1000 : rules.defaultIntervalMs;
  const grid = gridSourcesOf(await st.sources.all(vendor.id), rules.profileOf);
  const knowledge = grid.length === 0 ? null : rules.profileOf(grid[0]?.platform ?? "")?.components ?? null;
  if (knowledge === null) return { knowledge: null, runs: [], watches: [], intervalMs, quietDegradations: 0, incidents: [], now };
  const lagStart = new Date(Date.parse(period.from) - ACKNOWLEDGMENT_WINDOW_MS).toISOString();
  const runs: FigureRun[] = (await st.runs.all(vendor.id, period.to, lagStart)).map((r) => ({ ...r, status: r.status as ComponentStatus, isGroup: Boolean(r.isGroup), inferred: Boolean(r.inferred) }));
  const since = new Date(Date.parse(period.from) - longestWatchedGap(intervalMs)).toISOString();
  const { watches } = await loadGridObservations(db, vendor.id, since, { profileOf: rules.profileOf, intervalMs });
  const named = new Map<number, Component[]>();
  for (const n of await st.named.all(vendor.id, period.from, period.to)) named.set(n.incidentId, [...(named.get(n.incidentId) ?? []), { id: n.componentId, name: n.name }]);
  const incidents = (await st.incidents.all(vendor.id, period.from, period.to)).map((i) => ({ firstSeenAt: i.firstSeenAt, startedAt: i.startedAt, components: named.get(i.id) ?? [] }));
  return { knowledge, runs, watches, intervalMs, quietDegradations: (await st.quiet.get(vendor.id, period.from, period.to))?.n ?? 0, incidents, now };
}
