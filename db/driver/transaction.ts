import type { RedlineDb } from "@/db/driver/database";

/**
 * Transactions for asynchronous data access: every data function returns a promise, so a
 * transaction spans `await`s. Each connection runs its own (`Connection.transaction`): SQLite's
 * BEGIN [IMMEDIATE] / COMMIT / ROLLBACK around the work, queued per connection; PostgreSQL's on a
 * pooled client of its own.
 *
 * The rule: every write of more than one statement goes through `transact`; a single statement
 * may run on its own. A second transaction on the same connection waits for the first; a call
 * from inside the work (the same async chain) joins the open transaction, as
 * `inTransaction ? work() : transaction(work)` did. Statements run outside `transact` are not
 * queued: one run on the connection while another chain's transaction is open is part of that
 * transaction (docs/decisions/0043-asynchronous-data-access.md).
 */

export class TransactionError extends Error {
  readonly kind = "transaction";
}

/** Whether this async chain runs inside a transaction opened by `transact` on the connection. */
export function inTransact(db: RedlineDb): boolean {
  return db.connection.inTransaction();
}

/**
 * Run `work` in a transaction on `db`'s connection: committed when it resolves, rolled back when
 * it rejects (the error is rethrown). `immediate` takes the write lock at BEGIN, so a concurrent
 * writer in another process waits at the start instead of failing at its first write.
 */
export async function transact<T>(db: RedlineDb, work: (tx: RedlineDb) => Promise<T>, options: { immediate?: boolean } = {}): Promise<T> {
  return db.connection.transaction(() => work(db), options);
}
