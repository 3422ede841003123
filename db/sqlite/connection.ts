import type Database from "better-sqlite3";
import { sqliteDialect } from "@/db/sqlite/dialect";
import type { Connection, RunResult, Statement } from "@/db/driver/database";
import { inTransactionOn, transactOn } from "@/db/sqlite/transaction";

/** better-sqlite3's statements behind the asynchronous interface: each call runs at once, in the caller's turn. */
export function sqliteConnection(sqlite: Database.Database): Connection {
  return {
    dialect: sqliteDialect,
    prepare<P extends unknown[] | object = unknown[], R = unknown>(sql: string): Statement<P, R> {
      const statement = sqlite.prepare(sql);
      return {
        run: async (...params): Promise<RunResult> => {
          const result = statement.run(...params);
          return { changes: result.changes, lastInsertRowid: Number(result.lastInsertRowid) };
        },
        get: async (...params) => statement.get(...params) as R | undefined,
        all: async (...params) => statement.all(...params) as R[],
      };
    },
    exec: async (sql) => {
      sqlite.exec(sql);
    },
    transaction: (work, options) => transactOn(sqlite, work, options),
    inTransaction: () => inTransactionOn(sqlite),
    close: async () => {
      sqlite.close();
    },
  };
}
