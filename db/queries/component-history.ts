import type { Connection, RedlineDb } from "@/db/driver/database";
import { statementsFor } from "@/db/driver/prepared";
import type { StoredComponentRun, QuietDegradation } from "@/lib/components/component-history";
import type { ComponentStatus } from "@/lib/components/component-status";

/** A component's state as stored, before its run's bounds: what the record path and the pages read alike. */
export interface StateRow {
  componentId: string;
  name: string;
  groupId: string | null;
  isGroup: number;
  status: string;
  vendorStatus: string;
  inferred: number;
  source: string;
  vendorChangedAt: string | null;
  since: string;
}

export interface RunRow extends StateRow {
  from: string;
  until: string | null;
}

/** The columns of a StateRow but its component's key, from component_states `s` alone. */
const OWN_STATE_COLUMNS = `s.name, s.group_key AS "groupId", s.is_group AS "isGroup", s.status,
  s.vendor_status AS "vendorStatus", s.inferred, s.source, s.vendor_changed_at AS "vendorChangedAt", s.state_since AS "since"`;
/** The columns of a StateRow, from component_states `s` joined to components `c`. */
export const STATE_COLUMNS = `c.component_key AS "componentId", ${OWN_STATE_COLUMNS}`;
/** The columns of a RunRow. */
export const RUN_COLUMNS = `${STATE_COLUMNS}, s.from_at AS "from", s.until_at AS "until"`;
/** The columns of a RunRow but its component's key, for reading one component's runs without a join. */
export const OWN_RUN_COLUMNS = `${OWN_STATE_COLUMNS}, s.from_at AS "from", s.until_at AS "until"`;

const statements = statementsFor((c: Connection) => ({
  runs: c.prepare<[number], RunRow>(
    `SELECT ${RUN_COLUMNS} FROM component_states s JOIN components c ON c.id = s.component_id WHERE s.vendor_id = ? ORDER BY s.from_at, s.id`,
  ),
  quiet: c.prepare<[number], { from: string; until: string | null; components: string }>(
    `SELECT from_at AS "from", until_at AS "until", components FROM quiet_degradations WHERE vendor_id = ? ORDER BY from_at, id`,
  ),
}));

export function runOf(row: RunRow): StoredComponentRun {
  return { ...row, status: row.status as ComponentStatus, isGroup: Boolean(row.isGroup), inferred: Boolean(row.inferred) };
}

/** Every stored run of the vendor's components, oldest first. */
export async function loadComponentRuns(db: RedlineDb, vendorId: number): Promise<StoredComponentRun[]> {
  return (await statements(db).runs.all(vendorId)).map(runOf);
}

/** The vendor's quiet degradations, oldest first. */
export async function loadQuietDegradations(db: RedlineDb, vendorId: number): Promise<QuietDegradation[]> {
  return (await statements(db).quiet.all(vendorId)).map((r) => ({ from: r.from, until: r.until, components: JSON.parse(r.components) as string[] }));
}
