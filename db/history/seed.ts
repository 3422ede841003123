import type Database from "better-sqlite3";
import type { Connection, RedlineDb } from "@/db/driver/database";
import { rewindHistory } from "@/db/history/rewind";
import type { CaptureKey } from "@/db/record/prior-state";
import { statementsFor } from "@/db/driver/prepared";
import { packedFromBytes } from "@/db/schema/columns";
import { transact } from "@/db/driver/transaction";

/**
 * A rebuild of a vendor whose oldest raw bodies retention removed (decision 0017) cannot replay
 * those captures. Its scratch starts instead as a copy of the vendor's derived history, rewound to
 * just before the first capture after the last pruned one; only the captures from there on are
 * derived again, and the whole-history swap then writes back the part before unchanged.
 */

const KEY = "observed_at AS observedAt, source, hash";

const statements = statementsFor((c: Connection) => ({
  lastPruned: c.prepare<[number], CaptureKey>(
    `SELECT ${KEY} FROM captures WHERE vendor_id = ? AND body_pruned_at IS NOT NULL ORDER BY observed_at DESC, source DESC, hash DESC LIMIT 1`,
  ),
  firstAfter: c.prepare<[number, string, string, string], CaptureKey>(
    `SELECT ${KEY} FROM captures WHERE vendor_id = ? AND (observed_at, source, hash) > (?, ?, ?) ORDER BY observed_at, source, hash LIMIT 1`,
  ),
}));

/** The first capture after the vendor's last pruned one, in capture order: where its rebuild starts. */
export async function rebuildStart(db: RedlineDb, vendorId: number): Promise<{ pruned: boolean; from: CaptureKey | null }> {
  const st = statements(db);
  const last = await st.lastPruned.get(vendorId);
  if (!last) return { pruned: false, from: null };
  const from = await st.firstAfter.get(vendorId, last.observedAt, last.source, last.hash);
  return { pruned: true, from: from ?? null };
}

/** The scratch's columns of a table (the main database's have the same names, in either dialect) and whether each is declared TEXT. */
function columnsOf(scratch: Database.Database, table: string): Array<{ name: string; text: boolean }> {
  return scratch
    .prepare<[string], { name: string; type: string }>("SELECT name, type FROM pragma_table_info(?)")
    .all(table)
    .map((c) => ({ name: c.name, text: c.type.toLowerCase() === "text" }));
}

/**
 * Copy the rows `where` finds in the main database into the same table of the scratch, column for
 * column. A PostgreSQL archive hands its packed columns over as bytes: each goes in as SQLite holds it.
 */
async function copyRows(main: RedlineDb, scratch: Database.Database, table: string, where: string, params: unknown[]): Promise<void> {
  const columns = columnsOf(scratch, table);
  const list = columns.map((c) => `"${c.name}"`).join(", ");
  const insert = scratch.prepare(`INSERT OR REPLACE INTO "${table}" (${list}) VALUES (${columns.map(() => "?").join(", ")})`);
  const select = `SELECT ${list} FROM "${table}" t WHERE ${where}`;
  for (const row of await main.connection.dialect.history.iterateRows(main, select, params)) {
    insert.run(...columns.map(({ name, text }) => {
      const value = row[name];
      return text && Buffer.isBuffer(value) ? packedFromBytes(value) : value;
    }));
  }
}

const OF_VENDOR_INCIDENT = "t.incident_id IN (SELECT id FROM incidents WHERE vendor_id = ?)";

/**
 * Copy the vendor's row, sources, capture rows and whole derived history into an empty scratch,
 * then rewind the scratch to just before `from` (null: nothing after the pruned captures, so
 * nothing to derive again). One scratch transaction: a scratch with capture rows is seeded.
 */
export async function seedScratchFromHistory(main: RedlineDb, scratch: RedlineDb, vendorId: number, from: CaptureKey | null): Promise<void> {
  const s = scratch.$client;
  s.pragma("foreign_keys = OFF");
  // The main database is read in one transaction, so the copy is of one state while polls write.
  await transact(main, async () =>
    transact(scratch, async () => {
      await copyRows(main, s, "vendors", "t.id = ?", [vendorId]);
      await copyRows(main, s, "sources", "t.vendor_id = ?", [vendorId]);
      await copyRows(main, s, "captures", "t.vendor_id = ?", [vendorId]);
      await copyRows(main, s, "incidents", "t.vendor_id = ?", [vendorId]);
      await copyRows(main, s, "incident_components", OF_VENDOR_INCIDENT, [vendorId]);
      await copyRows(main, s, "incident_sources", OF_VENDOR_INCIDENT, [vendorId]);
      await copyRows(main, s, "incident_states", OF_VENDOR_INCIDENT, [vendorId]);
      await copyRows(main, s, "incident_versions", "t.vendor_id = ?", [vendorId]);
      await copyRows(main, s, "version_kinds", "t.vendor_id = ?", [vendorId]);
      await copyRows(main, s, "components", "t.vendor_id = ?", [vendorId]);
      await copyRows(main, s, "component_states", "t.vendor_id = ?", [vendorId]);
      await copyRows(main, s, "quiet_degradations", "t.vendor_id = ?", [vendorId]);
      const searchTable = main.connection.dialect.history.scratchSearchTable;
      if (searchTable !== null) await copyRows(main, s, searchTable, OF_VENDOR_INCIDENT, [vendorId]);
      if (from !== null) await rewindHistory(scratch, vendorId, from);
    }, { immediate: true }),
  );
}
