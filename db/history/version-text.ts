import type { Connection, RedlineDb } from "@/db/driver/database";
import { statementsFor } from "@/db/driver/prepared";
import { transact } from "@/db/driver/transaction";
import { unpackVersionContent, withVersionText } from "@/db/history/version-content";
import { readVersionState, replayIncidentSteps, storedStep, type StoredStep } from "@/db/history/version-states";
import type { Change } from "@/lib/change";
import type { ChangeKindName } from "@/lib/change-kinds";
import type { IncidentState } from "@/lib/incident";
import { currentSummarizer, type Summarizer } from "@/lib/summarize";

/**
 * A version's summary and headline are derived from its stored changes and the states around it,
 * and stored with the summarizer version that wrote them. Text an older summarizer wrote is
 * rendered again when read, and rewritten in place by `rerenderVersionTexts`; raw captures are never read.
 */

export interface VersionTextInput {
  vendorName: string;
  observedAt: string;
  kinds: readonly string[];
  changes: readonly Change[];
  state: IncidentState;
  /** The version before's state; null for the first. */
  previous: IncidentState | null;
}

export function renderVersionText(input: VersionTextInput, summarizer: Summarizer = currentSummarizer): { summary: string; headline: string } {
  const args = { ...input, kinds: input.kinds as ChangeKindName[] };
  return { summary: summarizer.summarize(args), headline: summarizer.headline(args) };
}

/** What a read of versions carries to have its text checked. */
export interface DerivedTextRow {
  incidentId: number;
  seq: number;
  observedAt: string;
  kinds: readonly string[];
  textVersion: number;
  vendorName: string;
  summary: string;
  headline: string;
}

interface TextStep extends StoredStep {
  id: number;
  observedAt: string;
  kinds: string;
  content: Buffer;
  textVersion: number;
}

const statements = statementsFor((c: Connection) => ({
  content: c.prepare<[number, number], { content: Buffer }>("SELECT content FROM incident_versions WHERE incident_id = ? AND seq = ?"),
  staleIncidents: c.prepare<[number, number], { incidentId: number; vendorName: string }>(
    `SELECT DISTINCT v.incident_id AS incidentId, d.name AS vendorName FROM incident_versions v JOIN vendors d ON d.id = v.vendor_id
     WHERE v.text_version <> ? LIMIT ?`,
  ),
  steps: c.prepare<[number], TextStep>(
    `SELECT id, seq, snapshot, patch, capture_id AS captureId, observed_at AS observedAt, kinds, content, text_version AS textVersion
     FROM incident_versions WHERE incident_id = ? ORDER BY seq`,
  ),
  update: c.prepare<[Buffer, number, number]>("UPDATE incident_versions SET content = ?, text_version = ? WHERE id = ?"),
}));

async function readChanges(db: RedlineDb, incidentId: number, seq: number): Promise<Change[]> {
  const row = await statements(db).content.get(incidentId, seq);
  return row ? unpackVersionContent(row.content).changes : [];
}

/** The rows, those whose text an older summarizer wrote rendered again (each rebuilds two states by bounded replay). */
export async function withFreshText<T extends DerivedTextRow>(db: RedlineDb, rows: T[], summarizer: Summarizer = currentSummarizer): Promise<T[]> {
  const fresh: T[] = [];
  for (const row of rows) {
    if (row.textVersion === summarizer.version) {
      fresh.push(row);
      continue;
    }
    const state = await readVersionState(db, row.incidentId, row.seq);
    if (!state) {
      fresh.push(row);
      continue;
    }
    const previous = row.seq > 1 ? ((await readVersionState(db, row.incidentId, row.seq - 1)) ?? null) : null;
    const changes = await readChanges(db, row.incidentId, row.seq);
    const text = renderVersionText({ vendorName: row.vendorName, observedAt: row.observedAt, kinds: row.kinds, changes, state, previous }, summarizer);
    fresh.push({ ...row, ...text, textVersion: summarizer.version });
  }
  return fresh;
}

/**
 * Rewrite the text of every version an older summarizer wrote (or of `batch` × `batches` incidents'),
 * a batch of incidents per transaction (resumable: what is done is no longer stale). Returns the versions rewritten.
 */
export async function rerenderVersionTexts(db: RedlineDb, summarizer: Summarizer = currentSummarizer, batch = 200, batches = Number.POSITIVE_INFINITY): Promise<number> {
  const st = statements(db);
  let written = 0;
  for (let done = 0; done < batches; done += 1) {
    const incidents = await st.staleIncidents.all(summarizer.version, batch);
    if (incidents.length === 0) return written;
    await transact(db, async () => {
      for (const { incidentId, vendorName } of incidents) {
        let previous: IncidentState | null = null;
        for (const { step, state } of await replayIncidentSteps(db, incidentId, (await st.steps.all(incidentId)).map((row) => storedStep(db, row)))) {
          const current = state as unknown as IncidentState;
          if (step.textVersion !== summarizer.version) {
            const { changes } = unpackVersionContent(step.content);
            const kinds = JSON.parse(step.kinds) as string[];
            const text = renderVersionText({ vendorName, observedAt: step.observedAt, kinds, changes, state: current, previous }, summarizer);
            await st.update.run(withVersionText(step.content, text), summarizer.version, step.id);
            written += 1;
          }
          previous = current;
        }
      }
    }, { immediate: true });
  }
  return written;
}
