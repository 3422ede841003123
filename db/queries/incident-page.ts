import type { Connection, RedlineDb } from "@/db/driver/database";
import { statementsFor } from "@/db/driver/prepared";
import type { Change } from "@/lib/change";
import type { ChangeKindName } from "@/lib/change-kinds";
import type { IncidentState } from "@/lib/incident";
import { currentSummarizer, type Summarizer } from "@/lib/summarize";
import { unpackVersionContent, unpackVersionText } from "@/db/history/version-content";
import { readVersionState } from "@/db/history/version-states";
import { withFreshText } from "@/db/history/version-text";

export interface VersionSummary {
  seq: number;
  observedAt: string;
  kinds: ChangeKindName[];
  summary: string;
}

export interface VersionDetail extends VersionSummary {
  /** What changed, said first (not the incident's boilerplate). */
  headline: string;
  hash: string;
  changes: Change[];
  snapshot: IncidentState;
}

/** A line of the incident's change history: the version, what it changed first, and the impact it showed (undefined on rows that predate storing it). */
export interface VersionLine extends VersionSummary {
  headline: string;
  impact: string | null | undefined;
}

export interface IncidentRecord {
  id: number;
  providerId: string;
  firstSeenAt: string;
  lastSeenAt: string;
  /** The source that lists it (its feed's last good capture dates what the page says is open). */
  source: string;
  versionCount: number;
  /** The current state: the last version's snapshot. */
  current: IncidentState;
  versions: VersionLine[];
}

const statements = statementsFor((c: Connection) => ({
  incident: c.prepare<[number, string], { id: number; providerId: string; firstSeenAt: string; lastSeenAt: string; source: string; versionCount: number; vendorName: string }>(
    `SELECT i.id, i.provider_id AS providerId, i.first_seen_at AS firstSeenAt, i.last_seen_at AS lastSeenAt, i.source, i.version_count AS versionCount,
       d.name AS vendorName
     FROM incidents i JOIN vendors d ON d.id = i.vendor_id WHERE i.vendor_id = ? AND i.provider_id = ?`,
  ),
  versions: c.prepare<[number], { seq: number; observedAt: string; kinds: string; content: Buffer; textVersion: number }>(
    `SELECT seq, observed_at AS observedAt, kinds, content, text_version AS textVersion FROM incident_versions WHERE incident_id = ? ORDER BY seq`,
  ),
  versionRefs: c.prepare<[number], { incidentId: number; versionCount: number }>(
    "SELECT id AS incidentId, version_count AS versionCount FROM incidents WHERE vendor_id = ? ORDER BY id",
  ),
  version: c.prepare<[number, number], { seq: number; observedAt: string; kinds: string; content: Buffer; textVersion: number; hash: string; vendorName: string }>(
    `SELECT v.seq, v.observed_at AS observedAt, v.kinds, v.content, v.text_version AS textVersion, v.hash, d.name AS vendorName
     FROM incident_versions v JOIN vendors d ON d.id = v.vendor_id WHERE v.incident_id = ? AND v.seq = ?`,
  ),
}));

/** An incident with its current state and the list of its versions; undefined when unknown. */
export async function getIncidentRecord(db: RedlineDb, vendorId: number, providerId: string, summarizer: Summarizer = currentSummarizer): Promise<IncidentRecord | undefined> {
  const st = statements(db);
  const found = await st.incident.get(vendorId, providerId);
  if (!found) return undefined;
  const { vendorName, ...row } = found;
  const incidentId = row.id;
  const current = await readVersionState(db, incidentId, row.versionCount);
  if (!current) return undefined;
  const listed = (await st.versions.all(incidentId)).map(({ content, ...v }) => {
    const { summary, headline, impact, incidentKind } = unpackVersionText(content);
    return { ...v, summary, headline, impact: incidentKind === null ? undefined : impact, incidentId, vendorName, kinds: JSON.parse(v.kinds) as ChangeKindName[] };
  });
  const versions = (await withFreshText(db, listed, summarizer)).map(({ seq, observedAt, kinds, summary, headline, impact }) => ({ seq, observedAt, kinds, summary, headline, impact }));
  return { ...row, current, versions };
}

/** What a version's own row says: its changes, its text (re-rendered if an older summarizer wrote it) and the incident's title, impact and kind as it stored them. */
async function versionRow(db: RedlineDb, incidentId: number, seq: number, summarizer: Summarizer) {
  const row = await statements(db).version.get(incidentId, seq);
  if (!row) return undefined;
  const kinds = JSON.parse(row.kinds) as ChangeKindName[];
  const content = unpackVersionContent(row.content);
  const [fresh] = await withFreshText(db, [{ ...row, summary: content.summary, headline: content.headline, incidentId, kinds }], summarizer);
  return { seq: row.seq, observedAt: row.observedAt, kinds, summary: fresh?.summary ?? content.summary, headline: fresh?.headline ?? content.headline, hash: row.hash, changes: content.changes, content };
}

/** One version of an incident, with its changes and full snapshot (rebuilt by bounded replay); undefined when unknown. */
export async function getVersionDetail(db: RedlineDb, incidentId: number, seq: number, summarizer: Summarizer = currentSummarizer): Promise<VersionDetail | undefined> {
  const found = await versionRow(db, incidentId, seq, summarizer);
  if (!found) return undefined;
  const snapshot = await readVersionState(db, incidentId, seq);
  if (!snapshot) return undefined;
  const { content: _content, ...version } = found;
  return { ...version, snapshot };
}

export interface VersionChange extends VersionSummary {
  hash: string;
  changes: Change[];
  /** The incident as this version named it. */
  heading: { title: string; impact: string | null; kind: string };
}

/**
 * One version's changes and how it named the incident, for its change page: from the version's
 * own row, without rebuilding its snapshot, unless the row predates storing the title and kind.
 */
export async function getVersionChange(db: RedlineDb, incidentId: number, seq: number, summarizer: Summarizer = currentSummarizer): Promise<VersionChange | undefined> {
  const found = await versionRow(db, incidentId, seq, summarizer);
  if (!found) return undefined;
  const { content, headline: _headline, ...version } = found;
  if (content.title !== null && content.incidentKind !== null) {
    return { ...version, heading: { title: content.title, impact: content.impact, kind: content.incidentKind } };
  }
  const incident = (await readVersionState(db, incidentId, seq))?.incident;
  return incident ? { ...version, heading: { title: incident.title, impact: incident.impact, kind: incident.kind } } : undefined;
}

/** Every version of every incident of a vendor, as getVersionDetail takes them. */
export async function listVersionRefs(db: RedlineDb, vendorId: number): Promise<Array<{ incidentId: number; seq: number }>> {
  return (await statements(db).versionRefs.all(vendorId)).flatMap((r) => Array.from({ length: r.versionCount }, (_, i) => ({ incidentId: r.incidentId, seq: i + 1 })));
}
