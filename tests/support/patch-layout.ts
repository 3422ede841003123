/** Rewrite an archive in the layout before reverse deltas: forward JSON patches, deflated full copies. */
import { deflateRawSync } from "node:zlib";
import type { RedlineDb } from "@/db/client";
import type { StoredPatch } from "@/db/history/json-deltas";
import type { PackedJson } from "@/db/history/packed-json";
import { replayStateRows } from "@/db/history/state-log";
import { replayIncidentSteps } from "@/db/history/version-states";
import { diffJson, type JsonValue } from "@/lib/json-patch";

/** That layout kept the first version and every 16th after it full. */
const wasCheckpoint = (seq: number) => (seq - 1) % 16 === 0;
const deflated = (text: string): PackedJson => (text.length < 256 ? text : deflateRawSync(text, { level: 6 }));
const patchOf = (before: string, after: string) => JSON.stringify(diffJson(JSON.parse(before) as JsonValue, JSON.parse(after) as JsonValue));

/** Every incident's versions and record states as the previous write path left them, in place. */
export async function writePatchLayout(db: RedlineDb): Promise<void> {
  const sqlite = db.$client;
  const versions = sqlite.prepare<[number], { id: number; seq: number; snapshot: PackedJson | null; patch: StoredPatch | null; captureId: number }>(
    "SELECT id, seq, snapshot, patch, capture_id AS captureId FROM incident_versions WHERE incident_id = ? ORDER BY seq",
  );
  const states = sqlite.prepare<[number], { id: number; state: PackedJson | null; patch: StoredPatch | null }>("SELECT id, state, patch FROM incident_states WHERE incident_id = ? ORDER BY id");
  const setVersion = sqlite.prepare<[PackedJson | null, string | null, number]>("UPDATE incident_versions SET snapshot = ?, patch = ? WHERE id = ?");
  const setState = sqlite.prepare<[PackedJson | null, string | null, number, number]>("UPDATE incident_states SET state = ?, patch = ?, depth = ? WHERE id = ?");
  // Versions projected from the state log are replayed through it first: the old layout kept a copy of every one.
  const replayed = new Map<number, string[]>();
  for (const { id } of sqlite.prepare<[], { id: number }>("SELECT id FROM incidents").all()) {
    replayed.set(id, (await replayIncidentSteps(db, id, versions.all(id))).map(({ state }) => JSON.stringify(state)));
  }
  sqlite.transaction(() => {
    for (const [id, vTexts] of replayed) {
      const vs = versions.all(id);
      vs.forEach((v, i) => {
        const text = vTexts[i] ?? "";
        const before = vTexts[i - 1];
        const keep = wasCheckpoint(v.seq) || i === vs.length - 1;
        setVersion.run(keep ? deflated(text) : null, before === undefined ? null : patchOf(before, text), v.id);
      });
      const ss = states.all(id);
      const sTexts = replayStateRows(ss);
      ss.forEach((s, i) => {
        const text = sTexts[i] ?? "";
        const depth = i % 16;
        const before = sTexts[i - 1];
        setState.run(depth === 0 || i === ss.length - 1 ? deflated(text) : null, depth === 0 || before === undefined ? null : patchOf(before, text), depth, s.id);
      });
    }
  })();
}
