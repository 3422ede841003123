/**
 * What a history's derived data weighs however it is laid out in rows: for each incident, every
 * record state it went through and every version's changes, kinds and time, as one JSON text
 * compressed with the stored-JSON dictionary (db/history/json-dictionary.ts). No per-row, index or page
 * cost is counted, and nothing of the raw layer, captures, search or summaries: a layout that
 * keeps each incident's history readable by itself cannot go below it.
 */
import { closeDatabase, openDatabase } from "@/db/client";
import { compressWithDictionary } from "@/db/history/json-dictionary";
import { statesByCapture } from "@/db/history/state-log";
import { unpackVersionContent } from "@/db/history/version-content";

export interface DerivedFloor {
  states: number;
  versions: number;
}

export async function derivedFloor(dbFile: string): Promise<DerivedFloor> {
  const db = openDatabase(dbFile);
  try {
    const sqlite = db.$client;
    const versionsOf = sqlite.prepare<[number], { content: Buffer; kinds: string; observedAt: string }>(
      "SELECT content, kinds, observed_at AS observedAt FROM incident_versions WHERE incident_id = ? ORDER BY seq",
    );
    const floor: DerivedFloor = { states: 0, versions: 0 };
    for (const { id } of sqlite.prepare<[], { id: number }>("SELECT id FROM incidents").all()) {
      floor.states += compressWithDictionary(Buffer.from(JSON.stringify([...(await statesByCapture(db, id)).values()]))).length;
      const versions = versionsOf.all(id).map((v) => [unpackVersionContent(v.content).changes, v.kinds, v.observedAt]);
      floor.versions += compressWithDictionary(Buffer.from(JSON.stringify(versions))).length;
    }
    return floor;
  } finally {
    closeDatabase(db);
  }
}
