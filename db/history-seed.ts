import type Database from "better-sqlite3";
import type { RedlineDb } from "@/db/client";
import { rewindHistory } from "@/db/history-rewind";
import type { CaptureKey } from "@/db/prior-state";
import { transact } from "@/db/transaction";

/**
 * A rebuild of a vendor whose oldest raw bodies retention removed (decision 0017) cannot replay
 * those captures. Its scratch starts instead as a copy of the vendor's derived history, rewound to
 * just before the first capture after the last pruned one; only the captures from there on are
 * derived again, and the whole-history swap then writes back the part before unchanged.
 */

const KEY = "observed_at AS observedAt, source, hash";

/** The first capture after the vendor's last pruned one, in capture order: where its rebuild starts. */
export async function rebuildStart(db: RedlineDb, vendorId: number): Promise<{ pruned: boolean; from: CaptureKey | null }> {
  const sqlite = db.$client;
  const last = sqlite
    .prepare<[number], CaptureKey>(
      `SELECT ${KEY} FROM captures WHERE vendor_id = ? AND body_pruned_at IS NOT NULL ORDER BY observed_at DESC, source DESC, hash DESC LIMIT 1`,
    )
    .get(vendorId);
  if (!last) return { pruned: false, from: null };
  const from = sqlite
    .prepare<[number, string, string, string], CaptureKey>(
      `SELECT ${KEY} FROM captures WHERE vendor_id = ? AND (observed_at, source, hash) > (?, ?, ?) ORDER BY observed_at, source, hash LIMIT 1`,
    )
    .get(vendorId, last.observedAt, last.source, last.hash);
  return { pruned: true, from: from ?? null };
}

function columnsOf(sqlite: Database.Database, table: string): string[] {
  return sqlite.prepare<[string], { name: string }>("SELECT name FROM pragma_table_info(?)").all(table).map((c) => c.name);
}

/** Copy the rows `select` finds in the main database into the same table of the scratch, column for column. */
function copyRows(main: Database.Database, scratch: Database.Database, table: string, where: string, params: unknown[], extra: string[] = []): void {
  const columns = [...extra, ...columnsOf(main, table)];
  const list = columns.map((c) => `"${c}"`).join(", ");
  const insert = scratch.prepare(`INSERT OR REPLACE INTO "${table}" (${list}) VALUES (${columns.map(() => "?").join(", ")})`);
  const rows = main.prepare(`SELECT ${list} FROM "${table}" t WHERE ${where}`).raw().iterate(...params) as IterableIterator<unknown[]>;
  for (const row of rows) insert.run(...row);
}

const OF_VENDOR_INCIDENT = "t.incident_id IN (SELECT id FROM incidents WHERE vendor_id = ?)";

/**
 * Copy the vendor's row, sources, capture rows and whole derived history into an empty scratch,
 * then rewind the scratch to just before `from` (null: nothing after the pruned captures, so
 * nothing to derive again). One scratch transaction: a scratch with capture rows is seeded.
 */
export async function seedScratchFromHistory(main: RedlineDb, scratch: RedlineDb, vendorId: number, from: CaptureKey | null): Promise<void> {
  const m = main.$client;
  const s = scratch.$client;
  s.pragma("foreign_keys = OFF");
  // The main database is read in one transaction, so the copy is of one state while polls write.
  await transact(main, async () =>
    transact(scratch, async () => {
      copyRows(m, s, "vendors", "t.id = ?", [vendorId]);
      copyRows(m, s, "sources", "t.vendor_id = ?", [vendorId]);
      copyRows(m, s, "captures", "t.vendor_id = ?", [vendorId]);
      copyRows(m, s, "incidents", "t.vendor_id = ?", [vendorId]);
      copyRows(m, s, "incident_components", OF_VENDOR_INCIDENT, [vendorId]);
      copyRows(m, s, "incident_sources", OF_VENDOR_INCIDENT, [vendorId]);
      copyRows(m, s, "incident_states", OF_VENDOR_INCIDENT, [vendorId]);
      copyRows(m, s, "incident_versions", "t.vendor_id = ?", [vendorId]);
      copyRows(m, s, "version_kinds", "t.vendor_id = ?", [vendorId]);
      copyRows(m, s, "incident_search_text", OF_VENDOR_INCIDENT, [vendorId]);
      if (from !== null) await rewindHistory(scratch, vendorId, from);
    }, { immediate: true }),
  );
}
