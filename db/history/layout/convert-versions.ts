import type Database from "better-sqlite3";
import type { RedlineDb } from "@/db/driver/database";
import { transact } from "@/db/driver/transaction";
import { encodeReverseDelta, type StoredPatch } from "@/db/history/json-deltas";
import { DICTIONARY_MARKER } from "@/db/history/json-dictionary";
import { isPacked, packJson, type PackedJson } from "@/db/history/packed-json";
import { isStateCheckpoint, replayStateRows, STATE_CHECKPOINT, statesByCapture } from "@/db/history/state-log";
import { isVersionCheckpoint, projectRecord, replaySteps, VERSION_CHECKPOINT } from "@/db/history/version-states";

/**
 * The `migrate` step that brings versions and record states to the form the write path gives them
 * now: a version whose record logged at its capture projects to its snapshot keeps nothing of its
 * own (db/history/version-states.ts); other versions and the record states keep full copies for the latest
 * row and checkpoints, reverse zstd deltas for the rest (db/history/json-deltas.ts). A version's changes,
 * in whatever form they were written, are packed into its content by migration 0021.
 * Rows of any earlier form (every snapshot in full, forward JSON patches, deflated copies) are read
 * and rewritten per incident, in one transaction; an incident already in the new form is left as
 * it is, so a run cut short is finished by running it again.
 */

export interface VersionConversion {
  incidents: number;
  versionsRewritten: number;
  statesRewritten: number;
}

interface VersionRow {
  id: number;
  seq: number;
  snapshot: PackedJson | null;
  patch: StoredPatch | null;
  captureId: number;
}

interface StateRow {
  id: number;
  state: PackedJson | null;
  patch: StoredPatch | null;
  depth: number;
}

/** What a row should hold: a full copy (kept as it is if already packed) or a reverse delta against the next text. */
function targetForm(stored: { full: PackedJson | null; patch: StoredPatch | null }, keep: boolean, text: string, next: string | undefined): { full: PackedJson | null; patch: Buffer | null } {
  if (keep || next === undefined) return { full: stored.full !== null && isPacked(stored.full, text) ? stored.full : packJson(text), patch: null };
  // A stored reverse delta is against the next row's text, which conversion never changes.
  if (stored.full === null && Buffer.isBuffer(stored.patch)) return { full: null, patch: stored.patch };
  return { full: null, patch: encodeReverseDelta(next, text) };
}

function same(a: PackedJson | StoredPatch | null, b: PackedJson | StoredPatch | null): boolean {
  return Buffer.isBuffer(a) && Buffer.isBuffer(b) ? a.equals(b) : a === b;
}

async function convertVersions(db: RedlineDb, incidentId: number, rows: readonly VersionRow[]): Promise<number> {
  if (rows.length === 0) return 0;
  const sqlite = db.$client;
  const update = sqlite.prepare<[PackedJson | null, Buffer | null, number]>("UPDATE incident_versions SET snapshot = ?, patch = ? WHERE id = ?");
  const records = await statesByCapture(db, incidentId);
  const texts = replaySteps(rows, (captureId) => records.get(captureId)).map(({ state }) => JSON.stringify(state));
  const projected = rows.map((row, i) => {
    const record = records.get(row.captureId);
    return record !== undefined && projectRecord(record) === texts[i];
  });
  // The versions that keep a copy form their own chain, each a delta against the next of them.
  const kept = rows.flatMap((row, i) => (projected[i] ? [] : [{ row, text: texts[i] ?? "" }]));
  const forms = new Map(
    kept.map(({ row, text }, k) => [row, targetForm({ full: row.snapshot, patch: row.patch }, isVersionCheckpoint(row.seq), text, kept[k + 1]?.text)] as const),
  );
  let rewritten = 0;
  rows.forEach((row) => {
    const form = forms.get(row) ?? { full: null, patch: null };
    if (same(form.full, row.snapshot) && same(form.patch, row.patch)) return;
    update.run(form.full, form.patch, row.id);
    rewritten += 1;
  });
  return rewritten;
}

function convertStates(sqlite: Database.Database, rows: readonly StateRow[]): number {
  if (rows.length === 0) return 0;
  const update = sqlite.prepare<[PackedJson | null, Buffer | null, number, number]>("UPDATE incident_states SET state = ?, patch = ?, depth = ? WHERE id = ?");
  const texts = replayStateRows(rows);
  let rewritten = 0;
  rows.forEach((row, i) => {
    const depth = i % STATE_CHECKPOINT;
    const form = targetForm({ full: row.state, patch: row.patch }, isStateCheckpoint(depth), texts[i] ?? "", texts[i + 1]);
    if (same(form.full, row.state) && same(form.patch, row.patch) && depth === row.depth) return;
    update.run(form.full, form.patch, depth, row.id);
    rewritten += 1;
  });
  return rewritten;
}

/** Convert every incident, `batch` incidents per transaction; `onBatch` hears the running totals after each. */
export async function convertVersionLayout(db: RedlineDb, options: { batch?: number; onBatch?: (progress: VersionConversion) => void } = {}): Promise<VersionConversion> {
  const sqlite = db.$client;
  const batch = options.batch ?? 200;
  const next = sqlite.prepare<[number, number], { id: number }>("SELECT id FROM incidents WHERE id > ? ORDER BY id LIMIT ?");
  const versions = sqlite.prepare<[number], VersionRow>("SELECT id, seq, snapshot, patch, capture_id AS captureId FROM incident_versions WHERE incident_id = ? ORDER BY seq");
  const states = sqlite.prepare<[number], StateRow>("SELECT id, state, patch, depth FROM incident_states WHERE incident_id = ? ORDER BY id");
  const progress: VersionConversion = { incidents: 0, versionsRewritten: 0, statesRewritten: 0 };
  let after = 0;
  for (;;) {
    const ids = next.all(after, batch).map((r) => r.id);
    if (ids.length === 0) return progress;
    await transact(db, async () => {
      for (const id of ids) {
        progress.versionsRewritten += await convertVersions(db, id, versions.all(id));
        progress.statesRewritten += convertStates(sqlite, states.all(id));
      }
    }, { immediate: true });
    progress.incidents += ids.length;
    after = ids.at(-1) ?? after;
    options.onBatch?.({ ...progress });
  }
}

/** A full copy stored otherwise than packJson stores it now (plain text of packable length, or deflated without the dictionary). */
const UNPACKED = (column: string) =>
  `((typeof(${column}) = 'text' AND length(${column}) >= 256) OR (typeof(${column}) = 'blob' AND substr(${column}, 1, 1) <> x'${DICTIONARY_MARKER.toString(16).padStart(2, "0")}'))`;

/** More full rows than the checkpoints (every 16th) and the latest. */
const TOO_MANY_FULL = (column: string, position: string, every: number) => `sum(${column} IS NOT NULL) > ${position} / ${every} + (${position} % ${every} <> 0)`;

/** Whether some version or record state still has a form written before (full copies everywhere, forward patches, plain copies). */
export function versionLayoutPending(sqlite: Database.Database): boolean {
  const columns = sqlite.prepare<[], { name: string }>("SELECT name FROM pragma_table_info('incident_versions')").all().map((c) => c.name);
  if (!columns.includes("patch")) return sqlite.prepare("SELECT 1 FROM incident_versions LIMIT 1").get() !== undefined;
  const found = (sql: string) => sqlite.prepare(sql).get() !== undefined;
  return (
    // A version keeping a copy may be one its logged record projects to (written before projection).
    found(`SELECT 1 FROM incident_versions WHERE snapshot IS NOT NULL OR patch IS NOT NULL LIMIT 1`) ||
    found(`SELECT 1 FROM incident_states WHERE typeof(patch) = 'text' OR ${UNPACKED("state")} LIMIT 1`) ||
    found(`SELECT 1 FROM incident_versions GROUP BY incident_id HAVING ${TOO_MANY_FULL("snapshot", "max(seq)", VERSION_CHECKPOINT)} LIMIT 1`) ||
    found(`SELECT 1 FROM incident_states GROUP BY incident_id HAVING ${TOO_MANY_FULL("state", "count(*)", STATE_CHECKPOINT)} LIMIT 1`)
  );
}
