import type { Connection, RedlineDb } from "@/db/driver/database";
import { statementsFor } from "@/db/driver/prepared";
import { loadComponentRuns, loadQuietDegradations } from "@/db/queries/component-history";
import { getVendorBySlug } from "@/db/settings/vendors";
import { toComponentHistories } from "@/lib/components/component-history";
import type { ChangeKindName } from "@/lib/change-kinds";
import type { ExportDocument, ExportVersion, StoredIncidentHistory } from "@/lib/export-document";
import { toExportIncident } from "@/lib/export-document";
import type { IncidentState } from "@/lib/incident";
import { currentSummarizer, type Summarizer } from "@/lib/summarize";
import type { StoredPatch } from "@/db/history/json-deltas";
import type { PackedJson } from "@/db/history/packed-json";
import { unpackVersionContent } from "@/db/history/version-content";
import { renderVersionText } from "@/db/history/version-text";
import { readVersionSnapshotText, replayIncidentSteps, storedStep } from "@/db/history/version-states";

interface VersionRow {
  incidentId: number;
  seq: number;
  observedAt: string;
  hash: string;
  kinds: string[];
  content: Buffer;
  textVersion: number;
  snapshot: PackedJson | null;
  patch: StoredPatch | null;
  captureId: number;
}

class ExportReplayError extends Error {
  readonly kind = "export-replay";
}

/** The incident's versions for export, with the current state; text an older summarizer wrote is rendered again by one replay. */
async function toHistory(
  db: RedlineDb,
  incidentId: number,
  rows: readonly VersionRow[],
  vendorName: string,
  summarizer: Summarizer,
): Promise<{ current: IncidentState | null; versions: ExportVersion[] }> {
  const stale = rows.some((r) => r.textVersion !== summarizer.version);
  const versions: ExportVersion[] = [];
  const states = stale ? (await replayIncidentSteps(db, incidentId, rows)).map(({ state }) => state as unknown as IncidentState) : [];
  let previous: IncidentState | null = null;
  for (const [i, r] of rows.entries()) {
    const { changes, summary } = unpackVersionContent(r.content);
    const version: ExportVersion = { seq: r.seq, observedAt: r.observedAt, hash: r.hash, kinds: r.kinds as ChangeKindName[], changes, summary };
    const current = states[i];
    if (current) {
      if (r.textVersion !== summarizer.version) {
        version.summary = renderVersionText({ vendorName, observedAt: r.observedAt, kinds: r.kinds, changes: version.changes, state: current, previous }, summarizer).summary;
      }
      previous = current;
    }
    versions.push(version);
  }
  const latest = rows.at(-1);
  const text = states.length === 0 && latest ? await readVersionSnapshotText(db, incidentId, latest.seq) : undefined;
  const current = states.at(-1) ?? (text === undefined ? undefined : (JSON.parse(text) as IncidentState));
  return { current: current ?? null, versions };
}

type StoredVersion = Omit<VersionRow, "kinds"> & { kinds: string };
type IncidentRow = { id: number; providerId: string; firstSeenAt: string; lastSeenAt: string };

const INCIDENTS = `SELECT id, provider_id AS providerId, first_seen_at AS firstSeenAt, last_seen_at AS lastSeenAt FROM incidents WHERE vendor_id = ?`;
const ORDER = "ORDER BY coalesce(started_at, first_seen_at) DESC, provider_id";
const VERSIONS = (ids: string) => `SELECT incident_id AS incidentId, seq, observed_at AS observedAt, hash, kinds, content, text_version AS textVersion,
       snapshot, patch, capture_id AS captureId
     FROM incident_versions WHERE incident_id IN (${ids}) ORDER BY incident_id, seq`;

const statements = statementsFor((c: Connection) => ({
  incidents: c.prepare<[number], IncidentRow>(`${INCIDENTS} ${ORDER}`),
  incident: c.prepare<[number, string], IncidentRow>(`${INCIDENTS} AND provider_id = ? ${ORDER}`),
  versions: c.prepare<[string], StoredVersion>(VERSIONS(c.dialect.queries.idsInParameter)),
}));

/**
 * A vendor's incidents (or one of them) with every version, newest incident first; undefined
 * when the vendor, or the asked-for incident, is unknown.
 */
export async function loadVendorExport(db: RedlineDb, slug: string, providerId?: string, summarizer: Summarizer = currentSummarizer): Promise<ExportDocument | undefined> {
  const vendor = await getVendorBySlug(db, slug);
  if (!vendor) return undefined;
  const st = statements(db);
  const rows = providerId === undefined ? await st.incidents.all(vendor.id) : await st.incident.all(vendor.id, providerId);
  if (providerId !== undefined && rows.length === 0) return undefined;
  const versionsByIncident = new Map<number, VersionRow[]>();
  const ids = rows.map((r) => r.id);
  const chunk = 500;
  for (let i = 0; i < ids.length; i += chunk) {
    for (const stored of await st.versions.all(JSON.stringify(ids.slice(i, i + chunk)))) {
      const row: VersionRow = { ...storedStep(db, stored), kinds: JSON.parse(stored.kinds) as string[] };
      const list = versionsByIncident.get(row.incidentId) ?? [];
      list.push(row);
      versionsByIncident.set(row.incidentId, list);
    }
  }
  const incidents = [];
  for (const r of rows) {
    const { current, versions } = await toHistory(db, r.id, versionsByIncident.get(r.id) ?? [], vendor.name, summarizer);
    if (!current) throw new ExportReplayError(versions.length === 0 ? "export: an incident without versions" : `export: incident ${r.providerId} has no current snapshot`);
    const history: StoredIncidentHistory = { firstSeenAt: r.firstSeenAt, lastSeenAt: r.lastSeenAt, current, versions };
    incidents.push(toExportIncident(history));
  }
  const head = { slug: vendor.slug, name: vendor.name };
  if (providerId !== undefined) return { vendor: head, incidents };
  const components = toComponentHistories(await loadComponentRuns(db, vendor.id));
  return { vendor: head, components, quietDegradations: await loadQuietDegradations(db, vendor.id), incidents };
}
