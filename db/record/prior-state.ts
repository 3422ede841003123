import type { RedlineDb } from "@/db/driver/database";
import { unpackJson } from "@/db/history/packed-json";
import type { StateRow } from "@/db/history/state-log";
import { type IncidentStateRow, writeStatements } from "@/db/record/write-statements";
import type { CaptureKey } from "@/lib/derive/capture-key";
import type { PreparedObservation } from "@/lib/derive/derive-capture";
import { type IncidentRecord, recordFromLegacy } from "@/lib/derive/incident-record";
import { needsStanding, type PresenceRule, type SourceStanding } from "@/lib/derive/presence";
import type { IncidentState } from "@/lib/incident";

export { type CaptureKey, compareCaptureKeys } from "@/lib/derive/capture-key";

/** What the derive stage needs to apply one capture: the records it concerns and where each source stood. */
export interface PriorState {
  records: Map<string, IncidentRecord>;
  /** Row ids of every incident in `records` or `unchanged`. */
  ids: Map<string, number>;
  unchanged: Set<string>;
  /** The latest logged state row of each incident in `records`, by row id (null: none logged). */
  states: Map<number, StateRow | null>;
  previouslyListed: number;
  own: SourceStanding;
  others: SourceStanding[];
}

/** The stored record of an incident; one archived before records is rebuilt from its last version. */
async function readRecord(db: RedlineDb, row: IncidentStateRow): Promise<IncidentRecord> {
  const { packed } = db.connection.dialect.history;
  if (row.state !== null) return JSON.parse(unpackJson(packed.read(row.state))) as IncidentRecord;
  const last = await writeStatements(db).lastSnapshot.get(row.id);
  if (!last) throw new Error(`store: incident ${row.id} has neither a record nor a version`);
  return recordFromLegacy(JSON.parse(unpackJson(packed.read(last.snapshot))) as IncidentState, row);
}

async function standingOf(db: RedlineDb, vendorId: number, source: string, presence: PresenceRule, key: CaptureKey): Promise<SourceStanding> {
  const row = await writeStatements(db).standing.get({ vendorId, source, observedAt: key.observedAt, keySource: key.source, hash: key.hash });
  return { source, presence, lastLiveAt: row?.lastLiveAt ?? null, windowStart: row?.windowStart ?? null };
}

/**
 * Load what deriving one capture of `key.source` needs: the records of listed incidents whose
 * observation changed since this source's last (the others are `unchanged` and not loaded), of the
 * incidents it listed before, and of those that appeared since its last look (it may owe them a
 * listing); and where the vendor's sources stood just before this capture.
 */
export async function loadPriorState(
  db: RedlineDb,
  vendorId: number,
  key: CaptureKey,
  presence: PresenceRule,
  observations: readonly PreparedObservation[],
  presenceOf: (platform: string) => PresenceRule | undefined,
): Promise<PriorState> {
  const st = writeStatements(db);
  const hashes = new Map(observations.map((o) => [o.incident.id, o.hash]));
  const ids = new Map<string, number>();
  const unchanged = new Set<string>();
  const wanted = new Set<number>();
  const sources = await st.sourcesWithOwnStanding.all({ vendorId, observedAt: key.observedAt, keySource: key.source, hash: key.hash });
  const ownRow = sources.find((s) => s.source === key.source);
  // Not registered: the source's first capture, or captures recorded before sources were (read as they are).
  const own: SourceStanding = ownRow
    ? { source: key.source, presence, lastLiveAt: ownRow.lastLiveAt, windowStart: ownRow.windowStart }
    : await standingOf(db, vendorId, key.source, presence, key);
  const withListed = presence.kind !== "single";
  // Incidents that appeared since the source last looked: it may owe them a listing.
  const since = presence.kind === "recent" || presence.kind === "full" ? own.lastLiveAt : null;
  const rows = hashes.size > 0 || withListed || since !== null
    ? await st.lightRows.all({ source: key.source, vendorId, ids: JSON.stringify([...hashes.keys()]), withListed: withListed ? 1 : 0, since })
    : [];
  for (const row of rows) {
    if (row.kind !== "named") continue;
    ids.set(row.providerId, row.id);
    if (row.listed === 1 && row.presence === "listed" && row.hash === hashes.get(row.providerId)) unchanged.add(row.providerId);
    else wanted.add(row.id);
  }
  const listedBefore = rows.filter((row) => row.kind === "listed");
  for (const row of [...listedBefore, ...rows.filter((r) => r.kind === "appeared")]) {
    ids.set(row.providerId, row.id);
    if (!unchanged.has(row.providerId)) wanted.add(row.id);
  }
  const records = new Map<string, IncidentRecord>();
  const states = new Map<number, StateRow | null>();
  if (wanted.size > 0) {
    for (const row of await st.incidentStates.all({ ids: JSON.stringify([...wanted]) })) {
      records.set(row.providerId, await readRecord(db, row));
      const { stateId, stateCaptureId, statePatch, stateDepth } = row;
      states.set(row.id, stateId === null || stateCaptureId === null || stateDepth === null ? null : { id: stateId, captureId: stateCaptureId, state: row.state, patch: statePatch, depth: stateDepth });
    }
  }
  const named = new Set([...records.values()].flatMap((record) => Object.keys(record.sources)));
  const others: SourceStanding[] = [];
  for (const s of sources) {
    const rule = s.source === key.source ? undefined : presenceOf(s.platform);
    if (rule && needsStanding(rule, s.source, named)) others.push(await standingOf(db, vendorId, s.source, rule, key));
  }
  return { records, ids, unchanged, states, previouslyListed: listedBefore.length, own, others };
}
