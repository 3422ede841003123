import type Database from "better-sqlite3";
import type { RedlineDb } from "@/db/client";
import { isPacked, packJson, type PackedJson, unpackJson } from "@/db/packed-json";
import { replayStateRows, STATE_CHECKPOINT } from "@/db/state-log";
import { isVersionCheckpoint, replaySteps } from "@/db/version-states";
import { diffJson, type JsonValue } from "@/lib/json-patch";

/**
 * The `migrate` step that drops repeated snapshots from databases written before versions and
 * record states were kept as patches: per incident, in one transaction, each version and state row
 * gets the form the write path gives it now. An incident already in that form is left as it is, so
 * a run cut short is finished by running it again.
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
  patch: string | null;
}

interface StateRow {
  id: number;
  state: PackedJson | null;
  patch: string | null;
  depth: number;
}

/** The stored form of a full copy that is to be kept: the one there if already packed. */
function keptForm(stored: PackedJson | null, text: string): PackedJson {
  return stored !== null && isPacked(stored, text) ? stored : packJson(text);
}

function patchText(before: string, after: string): string {
  return JSON.stringify(diffJson(JSON.parse(before) as JsonValue, JSON.parse(after) as JsonValue));
}

function convertVersions(sqlite: Database.Database, rows: readonly VersionRow[]): number {
  if (rows.length === 0) return 0;
  const update = sqlite.prepare<[PackedJson | null, string | null, number]>("UPDATE incident_versions SET snapshot = ?, patch = ? WHERE id = ?");
  const texts = replaySteps(rows).map(({ step, state }) => (step.snapshot !== null ? unpackJson(step.snapshot) : JSON.stringify(state)));
  let rewritten = 0;
  rows.forEach((row, i) => {
    const text = texts[i] ?? "";
    const keep = isVersionCheckpoint(row.seq) || i === rows.length - 1;
    const before = i > 0 ? texts[i - 1] : undefined;
    const patch = before === undefined ? null : (row.patch ?? patchText(before, text));
    const snapshot = keep ? keptForm(row.snapshot, text) : null;
    if (snapshot === row.snapshot && patch === row.patch) return;
    update.run(snapshot, patch, row.id);
    rewritten += 1;
  });
  return rewritten;
}

function convertStates(sqlite: Database.Database, rows: readonly StateRow[]): number {
  if (rows.length === 0) return 0;
  const update = sqlite.prepare<[PackedJson | null, string | null, number, number]>("UPDATE incident_states SET state = ?, patch = ?, depth = ? WHERE id = ?");
  const texts = replayStateRows(rows);
  let rewritten = 0;
  let depth = 0;
  rows.forEach((row, i) => {
    depth = i === 0 || depth + 1 >= STATE_CHECKPOINT ? 0 : depth + 1;
    const text = texts[i] ?? "";
    const before = texts[i - 1];
    const patch = depth === 0 || before === undefined ? null : row.depth === depth && row.patch !== null ? row.patch : patchText(before, text);
    const state = depth === 0 || i === rows.length - 1 ? keptForm(row.state, text) : null;
    if (state === row.state && patch === row.patch && depth === row.depth) return;
    update.run(state, patch, depth, row.id);
    rewritten += 1;
  });
  return rewritten;
}

/** Convert every incident, `batch` incidents per transaction; `onBatch` hears the running totals after each. */
export function convertVersionLayout(db: RedlineDb, options: { batch?: number; onBatch?: (progress: VersionConversion) => void } = {}): VersionConversion {
  const sqlite = db.$client;
  const batch = options.batch ?? 200;
  const next = sqlite.prepare<[number, number], { id: number }>("SELECT id FROM incidents WHERE id > ? ORDER BY id LIMIT ?");
  const versions = sqlite.prepare<[number], VersionRow>("SELECT id, seq, snapshot, patch FROM incident_versions WHERE incident_id = ? ORDER BY seq");
  const states = sqlite.prepare<[number], StateRow>("SELECT id, state, patch, depth FROM incident_states WHERE incident_id = ? ORDER BY id");
  const progress: VersionConversion = { incidents: 0, versionsRewritten: 0, statesRewritten: 0 };
  let after = 0;
  for (;;) {
    const ids = next.all(after, batch).map((r) => r.id);
    if (ids.length === 0) return progress;
    sqlite.transaction(() => {
      for (const id of ids) {
        progress.versionsRewritten += convertVersions(sqlite, versions.all(id));
        progress.statesRewritten += convertStates(sqlite, states.all(id));
      }
    }).immediate();
    progress.incidents += ids.length;
    after = ids.at(-1) ?? after;
    options.onBatch?.({ ...progress });
  }
}

/** Whether some version or record state still has the form written before patches. */
export function versionLayoutPending(sqlite: Database.Database): boolean {
  const columns = sqlite.prepare<[], { name: string }>("SELECT name FROM pragma_table_info('incident_versions')").all().map((c) => c.name);
  if (!columns.includes("patch")) return sqlite.prepare("SELECT 1 FROM incident_versions LIMIT 1").get() !== undefined;
  if (sqlite.prepare("SELECT 1 FROM incident_versions WHERE seq > 1 AND patch IS NULL LIMIT 1").get() !== undefined) return true;
  // Written now, an incident's rows are full only once every STATE_CHECKPOINT.
  return sqlite
    .prepare<[number], unknown>("SELECT 1 FROM incident_states GROUP BY incident_id HAVING sum(depth = 0) > 1 + (count(*) - 1) / ? LIMIT 1")
    .get(STATE_CHECKPOINT) !== undefined;
}
