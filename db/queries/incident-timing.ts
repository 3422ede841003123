import type { Connection, RedlineDb } from "@/db/driver/database";
import { statementsFor } from "@/db/driver/prepared";
import { unpackVersionContent } from "@/db/history/version-content";
import { ACKNOWLEDGMENT_WINDOW_MS, type LagRun } from "@/lib/components/acknowledgment-lag";
import type { ComponentStatus } from "@/lib/components/component-status";
import type { VersionSighting } from "@/lib/posted-late";

/**
 * The facts an incident's timing is judged on: each version with the capture that recorded it
 * and that source's good capture before (posted late), and the runs of the components it names
 * around its first sighting (acknowledgment lag).
 */

/** An incident naming more components than this is judged on the first ones (by id). */
const NAMED_LIMIT = 50;

const statements = statementsFor((c: Connection) => ({
  versions: c.prepare<[number], { seq: number; observedAt: string; kinds: string; vendorId: number; source: string; platform: string }>(
    `SELECT v.seq, v.observed_at AS "observedAt", v.kinds, c.vendor_id AS "vendorId", c.source, c.platform
     FROM incident_versions v JOIN captures c ON c.id = v.capture_id WHERE v.incident_id = ? ORDER BY v.seq`,
  ),
  content: c.prepare<[number, number], { content: Buffer }>(`SELECT content FROM incident_versions WHERE incident_id = ? AND seq = ?`),
  goodBefore: c.prepare<[number, string, string], { at: string }>(
    `SELECT coalesce(last_observed_at, observed_at) AS "at" FROM captures
     WHERE vendor_id = ? AND source = ? AND observed_at < ? AND outcome IN ('ok', 'not-modified') ORDER BY observed_at DESC LIMIT 1`,
  ),
  component: c.prepare<[number, string], { key: string }>(`SELECT component_key AS "key" FROM components WHERE vendor_id = ? AND component_key = ?`),
  runsAround: c.prepare<[number, string, string, string], { componentId: string; status: string; inferred: number; from: string; until: string | null }>(
    `SELECT c.component_key AS "componentId", s.status, s.inferred, s.from_at AS "from", s.until_at AS "until"
     FROM components c JOIN component_states s ON s.component_id = c.id
     WHERE c.vendor_id = ? AND c.component_key = ? AND s.from_at <= ? AND (s.until_at IS NULL OR s.until_at >= ?) ORDER BY s.from_at`,
  ),
}));

/** The incident's versions as posted-late reads them: only those that first state its start or add updates need their bound. */
export async function loadVersionSightings(db: RedlineDb, incidentId: number): Promise<VersionSighting[]> {
  const st = statements(db);
  const sightings: VersionSighting[] = [];
  for (const row of await st.versions.all(incidentId)) {
    // Only the first version and those that posted an update can show something first: the others are not decoded.
    if (row.seq !== 1 && !(JSON.parse(row.kinds) as string[]).includes("update-posted")) continue;
    const stored = await st.content.get(incidentId, row.seq);
    if (!stored) continue;
    const changes = unpackVersionContent(stored.content).changes.filter((c) => (c.field === "update" && c.kind === "added") || (row.seq === 1 && c.field === "startedAt"));
    if (changes.length === 0) continue;
    const before = await st.goodBefore.get(row.vendorId, row.source, row.observedAt);
    sightings.push({ seq: row.seq, platform: row.platform, observedAt: row.observedAt, previousGoodAt: before?.at ?? null, changes });
  }
  return sightings;
}

/** The runs of the named components that touch the window before the incident's first sighting (and the sighting itself). */
export async function loadRunsBeforeSighting(db: RedlineDb, vendorId: number, componentIds: readonly string[], firstSeenAt: string): Promise<LagRun[]> {
  const st = statements(db);
  const windowStart = new Date(Date.parse(firstSeenAt) - ACKNOWLEDGMENT_WINDOW_MS).toISOString();
  const runs: LagRun[] = [];
  for (const id of [...componentIds].sort().slice(0, NAMED_LIMIT)) {
    for (const r of await st.runsAround.all(vendorId, id, firstSeenAt, windowStart)) {
      runs.push({ componentId: r.componentId, status: r.status as ComponentStatus, inferred: Boolean(r.inferred), from: r.from, until: r.until });
    }
  }
  return runs;
}

/** Which of the components an incident names have a page: the vendor's grid listed them, or they were inferred. */
export async function findComponentPages(db: RedlineDb, vendorId: number, componentIds: readonly string[]): Promise<Set<string>> {
  const st = statements(db);
  const found = new Set<string>();
  for (const id of [...componentIds].sort().slice(0, NAMED_LIMIT)) if (await st.component.get(vendorId, id)) found.add(id);
  return found;
}
