import type { Connection, RowsStatement } from "@/db/driver/database";
import { statementShaped } from "@/db/driver/prepared";

/**
 * Many rows of one table in a few statements: a multi-row INSERT both databases take alike, so a
 * capture's writes cost a statement per table, not one per row (on PostgreSQL each is a round
 * trip). A statement is prepared per row count, once per connection; past MOST_ROWS the rows go
 * in statements of that many, which bounds the shapes a table keeps and the parameters one binds.
 */
export const MOST_ROWS = 64;

/** The statement writing `count` rows. */
export function rowsSql(statement: RowsStatement, count: number): string {
  const rows = Array.from({ length: count }, () => statement.row).join(", ");
  return `${statement.into} VALUES ${rows}${statement.tail ? ` ${statement.tail}` : ""}`;
}

function returnsRows(statement: RowsStatement): boolean {
  return statement.tail !== undefined && /\bRETURNING\b/i.test(statement.tail);
}

/**
 * Write `rows` (each the values of `statement.row`, in order) and give back what the statement
 * returns: match those rows by a key they carry, as PostgreSQL does not promise their order.
 */
export async function writeRows<R = never>(connection: Connection, statement: RowsStatement, rows: ReadonlyArray<readonly unknown[]>): Promise<R[]> {
  const returned: R[] = [];
  for (let at = 0; at < rows.length; at += MOST_ROWS) {
    const chunk = rows.slice(at, at + MOST_ROWS);
    const prepared = statementShaped<unknown[], R>(connection, rowsSql(statement, chunk.length));
    const values = chunk.flat();
    if (returnsRows(statement)) returned.push(...(await prepared.all(...values)));
    else await prepared.run(...values);
  }
  return returned;
}
