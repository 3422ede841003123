import { AsyncLocalStorage } from "node:async_hooks";
import type Database from "better-sqlite3";
import { TransactionError } from "@/db/driver/transaction";

/**
 * better-sqlite3's `transaction()` runs a synchronous function and cannot span an `await`: BEGIN
 * [IMMEDIATE] / COMMIT / ROLLBACK run on the connection around asynchronous work instead. A second
 * transaction on the same connection waits for the first (an async queue per connection); a call
 * from inside the work (the same async chain) joins the open transaction.
 */

/** One transaction opened here; callbacks that outlive it must not think they are inside. */
interface Frame {
  active: boolean;
}
type Frames = ReadonlyMap<Database.Database, Frame>;

/** The connections whose transaction this async chain is inside. */
const inside = new AsyncLocalStorage<Frames>();
/** Per connection, the end of the last transaction queued on it. */
const queues = new WeakMap<Database.Database, Promise<void>>();

/** Whether this async chain runs inside a transaction opened on `sqlite` by `transactOn`. */
export function inTransactionOn(sqlite: Database.Database): boolean {
  return inside.getStore()?.get(sqlite)?.active ?? false;
}

/** Run `work` in a transaction on `sqlite`, queued behind the connection's open one; nested calls join it. */
export async function transactOn<T>(sqlite: Database.Database, work: () => Promise<T>, options: { immediate?: boolean } = {}): Promise<T> {
  const open = inside.getStore();
  if (open?.get(sqlite)?.active) return work();
  const before = queues.get(sqlite);
  let release = (): void => {};
  const done = new Promise<void>((resolve) => {
    release = resolve;
  });
  const tail = before ? before.then(() => done) : done;
  queues.set(sqlite, tail);
  try {
    if (before) await before;
    return await run(sqlite, open, work, options.immediate ?? false);
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
