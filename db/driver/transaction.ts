import { AsyncLocalStorage } from "node:async_hooks";
import type Database from "better-sqlite3";
import type { RedlineDb } from "@/db/driver/database";
import type { PostgresConnection } from "@/db/postgres/connection";

/**
 * Transactions for asynchronous data access. PostgreSQL's driver is asynchronous, so every data
 * function returns a promise; better-sqlite3's `transaction()` runs a synchronous function and
 * cannot span an `await`. `transact` runs BEGIN [IMMEDIATE] / COMMIT / ROLLBACK on the connection
 * around asynchronous work instead.
 *
 * The rule: every write of more than one statement goes through `transact`; a single statement
 * may run on its own. A second transaction on the same connection waits for the first (an async
 * queue per connection); a call from inside the work (the same async chain) joins the open
 * transaction, as `inTransaction ? work() : transaction(work)` did. Statements run outside
 * `transact` are not queued: one run on the connection while another chain's transaction is open
 * is part of that transaction (docs/decisions/0043-asynchronous-data-access.md).
 */

export class TransactionError extends Error {
  readonly kind = "transaction";
}

/** One transaction opened by `transact`; callbacks that outlive it must not think they are inside. */
interface Frame {
  active: boolean;
}
type Frames = ReadonlyMap<Database.Database, Frame>;

/** The connections whose transaction this async chain is inside. */
const inside = new AsyncLocalStorage<Frames>();
/** Per connection, the end of the last transaction queued on it. */
const queues = new WeakMap<Database.Database, Promise<void>>();

/** Whether this async chain runs inside a transaction opened by `transact` on the connection. */
export function inTransact(db: RedlineDb): boolean {
  if (db.connection.dialect.name === "postgres") return (db.connection as PostgresConnection).inTransaction();
  return inside.getStore()?.get(db.$client)?.active ?? false;
}

/**
 * Run `work` in a transaction on `db`'s connection: committed when it resolves, rolled back when
 * it rejects (the error is rethrown). `immediate` takes the write lock at BEGIN, so a concurrent
 * writer in another process waits at the start instead of failing at its first write.
 */
export async function transact<T>(db: RedlineDb, work: (tx: RedlineDb) => Promise<T>, options: { immediate?: boolean } = {}): Promise<T> {
  // PostgreSQL: a pooled client of its own per transaction, so no queue; `immediate` takes a writer lock.
  if (db.connection.dialect.name === "postgres") return (db.connection as PostgresConnection).transaction(() => work(db), options);
  const sqlite = db.$client;
  const open = inside.getStore();
  if (open?.get(sqlite)?.active) return work(db);
  const before = queues.get(sqlite);
  let release = (): void => {};
  const done = new Promise<void>((resolve) => {
    release = resolve;
  });
  const tail = before ? before.then(() => done) : done;
  queues.set(sqlite, tail);
  try {
    if (before) await before;
    return await run(sqlite, open, () => work(db), options.immediate ?? false);
  } finally {
    release();
    if (queues.get(sqlite) === tail) queues.delete(sqlite);
  }
}

/** BEGIN, COMMIT and ROLLBACK prepared once per connection, as better-sqlite3's own transactions keep them. */
interface Control {
  begin: Database.Statement;
  beginImmediate: Database.Statement;
  commit: Database.Statement;
  rollback: Database.Statement;
}
const controls = new WeakMap<Database.Database, Control>();

function controlOf(sqlite: Database.Database): Control {
  let control = controls.get(sqlite);
  if (!control) {
    control = { begin: sqlite.prepare("BEGIN"), beginImmediate: sqlite.prepare("BEGIN IMMEDIATE"), commit: sqlite.prepare("COMMIT"), rollback: sqlite.prepare("ROLLBACK") };
    controls.set(sqlite, control);
  }
  return control;
}

async function run<T>(sqlite: Database.Database, open: Frames | undefined, work: () => Promise<T>, immediate: boolean): Promise<T> {
  if (sqlite.inTransaction) throw new TransactionError("store: a transaction is already open on this connection outside transact");
  const control = controlOf(sqlite);
  (immediate ? control.beginImmediate : control.begin).run();
  const frame: Frame = { active: true };
  try {
    const result = await inside.run(new Map(open).set(sqlite, frame), work);
    frame.active = false;
    control.commit.run();
    return result;
  } catch (error) {
    frame.active = false;
    // A failed COMMIT may have ended the transaction already (SQLite rolls back on some errors).
    if (sqlite.inTransaction) control.rollback.run();
    throw error;
  }
}
