import type { RedlineDb } from "@/db/driver/database";
import type { StoredPatch } from "@/db/history/json-deltas";
import type { PackedJson } from "@/db/history/packed-json";
import { recordsByCapture } from "@/db/history/state-log";
import { isProjected, replaySteps, type StoredStep } from "@/db/history/version-states";
import type { IncidentState } from "@/lib/incident";
import { removedText } from "@/lib/removed-text";

/**
 * Migration 0022 lists the incidents recorded before versions kept what they took away; this
 * fills their rows of version_search from the stored versions, a batch of incidents per
 * transaction, so an upgraded archive finds edited-away words as a new one does (decision 0028).
 * The versions' states are stored as deltas only JavaScript can replay, so SQL cannot do it.
 * SQLite only, and synchronous: it runs inside opening a file.
 */
export function fillVersionSearch(db: RedlineDb, batch = 200): number {
  const file = db.$client;
  const listed = file.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'version_search_backlog'").get();
  if (!listed) return 0;
  const next = file.prepare<[number], { id: number }>("SELECT incident_id AS id FROM version_search_backlog ORDER BY incident_id LIMIT ?");
  const steps = file.prepare<[number], StoredStep & { id: number }>(
    "SELECT id, seq, snapshot, patch, capture_id AS captureId FROM incident_versions WHERE incident_id = ? ORDER BY seq",
  );
  const states = file.prepare<[number], { captureId: number; state: PackedJson | null; patch: StoredPatch | null }>(
    "SELECT capture_id AS captureId, state, patch FROM incident_states WHERE incident_id = ? ORDER BY id",
  );
  const insert = file.prepare<[number, string]>("INSERT INTO version_search (rowid, removed) VALUES (?, ?)");
  const done = file.prepare<[number]>("DELETE FROM version_search_backlog WHERE incident_id = ?");
  let filled = 0;
  const fillBatch = file.transaction((rows: Array<{ id: number }>) => {
    for (const { id } of rows) {
      let before: IncidentState | undefined;
      const rows = steps.all(id);
      // Versions projected from the record logged at their capture are replayed through the log.
      const records = recordsByCapture(rows.some(isProjected) ? states.all(id) : []);
      for (const { step, state } of replaySteps(rows, (captureId) => records.get(captureId))) {
        const after = state as unknown as IncidentState;
        const removed = before ? removedText(before.incident, after.incident) : "";
        if (removed !== "") {
          insert.run(step.id, removed);
          filled += 1;
        }
        before = after;
      }
      done.run(id);
    }
  });
  for (;;) {
    const rows = next.all(batch);
    if (rows.length === 0) break;
    fillBatch(rows);
  }
  file.exec("DROP TABLE version_search_backlog");
  return filled;
}
