import type { Connection, RedlineDb } from "@/db/driver/database";
import type { CaptureKey } from "@/db/record/prior-state";
import { STATE_COLUMNS, type StateRow } from "@/db/queries/component-history";
import { writeRows } from "@/db/driver/batch";
import { statementsFor } from "@/db/driver/prepared";
import type { ComponentStatus } from "@/lib/components/component-status";
import { type ComponentState, type ComponentStep, type OpenIncidentFacts, quietComponentsOf, type RunningQuiet } from "@/lib/components/component-step";
import { type Impact, isOpenIncident } from "@/lib/incident";

/**
 * The record path of the component grid: the open runs a capture's component step starts from,
 * and the step written back. Runs inside the capture's transaction.
 */

export interface OpenComponentState extends ComponentState {
  rowId: number;
}

interface StoredStateRow extends StateRow {
  rowId: number;
}

const STORED_STATE_COLUMNS = `s.id AS "rowId", ${STATE_COLUMNS}`;

/** The captures at or after a key, in capture order: what a rewind undoes. */
const FROM_KEY = "SELECT id FROM captures WHERE vendor_id = ? AND (observed_at, source, hash) >= (?, ?, ?)";

/** Components by key, registered on first sight; their ids come back with their keys. */
const COMPONENT_ROWS = {
  into: "INSERT INTO components (vendor_id, component_key)",
  row: "(?, ?)",
  tail: `ON CONFLICT (vendor_id, component_key) DO UPDATE SET component_key = excluded.component_key RETURNING id, component_key AS "componentKey"`,
};

const STATE_ROWS = {
  into: `INSERT INTO component_states (component_id, vendor_id, name, group_key, is_group, status, vendor_status, inferred, source, state_since,
    vendor_changed_at, from_at, from_capture_id)`,
  row: "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
};

const statements = statementsFor((c: Connection) => ({
  open: c.prepare<[number], StoredStateRow>(
    `SELECT ${STORED_STATE_COLUMNS} FROM component_states s JOIN components c ON c.id = s.component_id WHERE s.vendor_id = ? AND s.until_at IS NULL`,
  ),
  runningQuiet: c.prepare<[number], { id: number; fromAt: string; components: string }>(
    `SELECT id, from_at AS "fromAt", components FROM quiet_degradations WHERE vendor_id = ? AND until_at IS NULL ORDER BY from_at DESC LIMIT 1`,
  ),
  openIncidents: c.prepare<[number], { providerId: string; kind: string; status: string | null; impact: string | null; resolvedAt: string | null; presence: string; componentId: string | null; componentName: string | null }>(
    `SELECT i.provider_id AS "providerId", i.kind, i.status, i.impact, i.resolved_at AS "resolvedAt", i.presence,
       ic.component_id AS "componentId", ic.name AS "componentName"
     FROM incidents i LEFT JOIN incident_components ic ON ic.incident_id = i.id
     WHERE i.vendor_id = ? AND i.presence = 'listed' AND i.resolved_at IS NULL`,
  ),
  endStates: c.prepare<{ at: string; capture: number; ids: string }>(
    `UPDATE component_states SET until_at = @at, until_capture_id = @capture WHERE id IN (${c.dialect.operations.listedIds("ids")})`,
  ),
  startQuiet: c.prepare<[number, string, number, string]>("INSERT INTO quiet_degradations (vendor_id, from_at, from_capture_id, components) VALUES (?, ?, ?, ?)"),
  growQuiet: c.prepare<[string, number]>("UPDATE quiet_degradations SET components = ? WHERE id = ?"),
  endQuiet: c.prepare<[string, number, number]>("UPDATE quiet_degradations SET until_at = ?, until_capture_id = ? WHERE id = ?"),
  dropQuiet: c.prepare<[number]>("DELETE FROM quiet_degradations WHERE id = ?"),
  rewindStarted: c.prepare<[number, number, string, string, string]>(`DELETE FROM component_states WHERE vendor_id = ? AND from_capture_id IN (${FROM_KEY})`),
  rewindEnded: c.prepare<[number, number, string, string, string]>(
    `UPDATE component_states SET until_at = NULL, until_capture_id = NULL WHERE vendor_id = ? AND until_capture_id IN (${FROM_KEY})`,
  ),
  rewindQuietStarted: c.prepare<[number, number, string, string, string]>(`DELETE FROM quiet_degradations WHERE vendor_id = ? AND from_capture_id IN (${FROM_KEY})`),
  rewindQuietEnded: c.prepare<[number, number, string, string, string]>(
    `UPDATE quiet_degradations SET until_at = NULL, until_capture_id = NULL WHERE vendor_id = ? AND until_capture_id IN (${FROM_KEY})`,
  ),
  statesSince: c.prepare<[number, string], StoredStateRow>(
    `SELECT ${STORED_STATE_COLUMNS} FROM component_states s JOIN components c ON c.id = s.component_id
     WHERE s.vendor_id = ? AND (s.until_at IS NULL OR s.until_at > ?)`,
  ),
}));

function stateOf(row: StoredStateRow): OpenComponentState {
  return {
    rowId: row.rowId, componentId: row.componentId, name: row.name, groupId: row.groupId, isGroup: Boolean(row.isGroup),
    status: row.status as ComponentStatus, vendorStatus: row.vendorStatus, inferred: Boolean(row.inferred), source: row.source, vendorChangedAt: row.vendorChangedAt,
    since: row.since,
  };
}

/** Every component's open run and the running quiet degradation: what the component step starts from. */
export async function loadComponentPrior(db: RedlineDb, vendorId: number): Promise<{ current: OpenComponentState[]; quiet: (RunningQuiet & { id: number }) | null }> {
  const st = statements(db);
  const current = (await st.open.all(vendorId)).map(stateOf);
  // A quiet degradation ends in the step that leaves no component current: none runs without one.
  const running = current.length === 0 ? undefined : await st.runningQuiet.get(vendorId);
  return { current, quiet: running ? { id: running.id, from: running.fromAt, components: JSON.parse(running.components) as string[] } : null };
}

/** The vendor's open incidents and maintenances as the archive holds them now, with the components each names. */
export async function loadOpenIncidents(db: RedlineDb, vendorId: number): Promise<OpenIncidentFacts[]> {
  const byId = new Map<string, OpenIncidentFacts & { components: Array<{ id: string; name: string }> }>();
  for (const row of await statements(db).openIncidents.all(vendorId)) {
    if (!isOpenIncident(row, row.presence)) continue;
    let facts = byId.get(row.providerId);
    if (!facts) {
      facts = { kind: row.kind === "maintenance" ? "maintenance" : "incident", status: row.status, impact: row.impact as Impact | null, components: [] };
      byId.set(row.providerId, facts);
    }
    if (row.componentId !== null) facts.components.push({ id: row.componentId, name: row.componentName ?? row.componentId });
  }
  return [...byId.values()];
}

/** Write one capture's component step: the runs it ends and starts (a statement each for all of them), and the quiet degradation's change. */
export async function recordComponentStep(
  db: RedlineDb,
  ctx: { vendorId: number; captureId: number; observedAt: string },
  prior: Awaited<ReturnType<typeof loadComponentPrior>>,
  step: ComponentStep,
): Promise<void> {
  const st = statements(db);
  const rows = new Map(prior.current.map((s) => [s.componentId, s.rowId]));
  const ended = step.ended.flatMap((id) => rows.get(id) ?? []);
  if (ended.length > 0) await st.endStates.run({ at: ctx.observedAt, capture: ctx.captureId, ids: JSON.stringify(ended) });
  const keys = [...new Set(step.started.map((s) => s.componentId))];
  const ids = new Map((await writeRows<{ id: number; componentKey: string }>(db.connection, COMPONENT_ROWS, keys.map((key) => [ctx.vendorId, key]))).map((r) => [r.componentKey, r.id]));
  await writeRows(db.connection, STATE_ROWS, step.started.map((s) => {
    const componentId = ids.get(s.componentId);
    if (componentId === undefined) throw new Error(`store: unable to register component ${s.componentId} of vendor ${ctx.vendorId}`);
    return [componentId, ctx.vendorId, s.name, s.groupId, s.isGroup ? 1 : 0, s.status, s.vendorStatus, s.inferred ? 1 : 0, s.source, s.since, s.vendorChangedAt, ctx.observedAt, ctx.captureId];
  }));
  const q = step.quiet;
  if (q === null) return;
  if (q.kind === "start") await st.startQuiet.run(ctx.vendorId, ctx.observedAt, ctx.captureId, JSON.stringify(q.components));
  else if (prior.quiet && q.kind === "grow") await st.growQuiet.run(JSON.stringify(q.components), prior.quiet.id);
  else if (prior.quiet && q.kind === "end") await st.endQuiet.run(ctx.observedAt, ctx.captureId, prior.quiet.id);
  else if (prior.quiet && q.kind === "drop") await st.dropQuiet.run(prior.quiet.id);
}

/**
 * Undo what the vendor's captures at or after `from` did to its components: the runs they started
 * go, the runs they ended are open again; likewise the quiet degradations, whose components are
 * then those degraded during what remains of the stretch. Runs inside the rewind's transaction.
 */
export async function rewindComponents(db: RedlineDb, vendorId: number, from: CaptureKey): Promise<void> {
  const st = statements(db);
  const key = [vendorId, vendorId, from.observedAt, from.source, from.hash] as const;
  await st.rewindStarted.run(...key);
  await st.rewindEnded.run(...key);
  await st.rewindQuietStarted.run(...key);
  await st.rewindQuietEnded.run(...key);
  const running = await st.runningQuiet.get(vendorId);
  if (!running) return;
  const components = quietComponentsOf((await st.statesSince.all(vendorId, running.fromAt)).map(stateOf));
  if (components.length === 0) await st.dropQuiet.run(running.id);
  else await st.growQuiet.run(JSON.stringify([...new Set(components)].sort()), running.id);
}
