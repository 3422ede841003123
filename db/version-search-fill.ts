import type { RedlineDb } from "@/db/client";
import { readVersionState } from "@/db/version-states";
import { removedText } from "@/lib/removed-text";

/**
 * Migration 0022 lists the incidents recorded before versions kept what they took away; this
 * fills their rows of version_search from the stored versions, a batch of incidents per
 * transaction, so an upgraded archive finds edited-away words as a new one does (decision 0028).
 * The versions' states are stored as deltas only JavaScript can replay, so SQL cannot do it.
 */
export function fillVersionSearch(db: RedlineDb, batch = 200): number {
  const sqlite = db.$client;
  const listed = sqlite.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'version_search_backlog'").get();
  if (!listed) return 0;
  const next = sqlite.prepare<[number], { id: number; versions: number }>(
    `SELECT b.incident_id AS id, coalesce(i.version_count, 0) AS versions FROM version_search_backlog b LEFT JOIN incidents i ON i.id = b.incident_id
     ORDER BY b.incident_id LIMIT ?`,
  );
  const versionId = sqlite.prepare<[number, number], { id: number }>("SELECT id FROM incident_versions WHERE incident_id = ? AND seq = ?");
  const insert = sqlite.prepare<[number, string]>("INSERT INTO version_search (rowid, removed) VALUES (?, ?)");
  const done = sqlite.prepare<[number]>("DELETE FROM version_search_backlog WHERE incident_id = ?");
  let filled = 0;
  const step = sqlite.transaction((rows: Array<{ id: number; versions: number }>) => {
    for (const { id, versions } of rows) {
      let before = readVersionState(db, id, 1);
      for (let seq = 2; seq <= versions; seq += 1) {
        const after = readVersionState(db, id, seq);
        const row = versionId.get(id, seq);
        const removed = before && after ? removedText(before.incident, after.incident) : "";
        if (row && removed !== "") {
          insert.run(row.id, removed);
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
    step(rows);
  }
  sqlite.exec("DROP TABLE version_search_backlog");
  return filled;
}
