import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { closeDatabase, openDatabase, type RedlineDb } from "@/db/client";
import { inTransact, transact, TransactionError } from "@/db/transaction";
import { freshDatabase } from "@/tests/support/database";

const databases: RedlineDb[] = [];

async function database(): Promise<RedlineDb> {
  const db = await freshDatabase();
  db.$client.exec("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)");
  databases.push(db);
  return db;
}

function notes(db: RedlineDb): string[] {
  return db.$client.prepare<[], { text: string }>("SELECT text FROM notes ORDER BY id").all().map((r) => r.text);
}

function note(db: RedlineDb, text: string): void {
  db.$client.prepare("INSERT INTO notes (text) VALUES (?)").run(text);
}

/** A promise and the function that resolves it: lets a test hold a transaction open. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open = (): void => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

class WorkFailed extends Error {
  readonly kind = "test";
}

afterEach(() => {
  for (const db of databases.splice(0)) closeDatabase(db);
});

describe("transact", () => {
  it("commits what the work wrote when it resolves, and returns its result", async () => {
    const db = await database();
    const result = await transact(db, async (tx) => {
      note(tx, "a");
      await Promise.resolve();
      note(tx, "b");
      expect(db.$client.inTransaction).toBe(true);
      return 42;
    });
    expect(result).toBe(42);
    expect(db.$client.inTransaction).toBe(false);
    expect(notes(db)).toEqual(["a", "b"]);
  });

  it("rolls back everything the work wrote when it rejects, and rethrows the error", async () => {
    const db = await database();
    note(db, "before");
    const failure = transact(db, async (tx) => {
      note(tx, "a");
      await Promise.resolve();
      note(tx, "b");
      throw new WorkFailed("no");
    });
    await expect(failure).rejects.toBeInstanceOf(WorkFailed);
    expect(db.$client.inTransaction).toBe(false);
    expect(notes(db)).toEqual(["before"]);
  });

  it("leaves the connection usable after a rollback: the next transaction commits", async () => {
    const db = await database();
    await expect(transact(db, () => Promise.reject(new WorkFailed("no")))).rejects.toThrow("no");
    await transact(db, async (tx) => note(tx, "after"));
    note(db, "outside");
    expect(notes(db)).toEqual(["after", "outside"]);
  });

  it("rolls back a statement error and rethrows it as SQLite raised it", async () => {
    const db = await database();
    const failure = transact(db, async (tx) => {
      note(tx, "a");
      tx.$client.prepare("INSERT INTO notes (id, text) VALUES (1, 'duplicate id')").run();
    });
    await expect(failure).rejects.toThrow(/UNIQUE constraint failed/);
    expect(notes(db)).toEqual([]);
  });

  it("makes a second transaction on the same connection wait until the first has committed", async () => {
    const db = await database();
    const hold = gate();
    const order: string[] = [];
    const first = transact(db, async (tx) => {
      order.push("first begins");
      note(tx, "first");
      await hold.opened;
      order.push("first ends");
    });
    const second = transact(db, async (tx) => {
      order.push("second begins");
      // It sees the first's rows committed, not half of them.
      expect(notes(tx)).toEqual(["first"]);
      note(tx, "second");
    });
    // Let both chains run as far as they can: the second must not begin while the first holds.
    for (let i = 0; i < 20; i += 1) await Promise.resolve();
    expect(order).toEqual(["first begins"]);
    hold.open();
    await Promise.all([first, second]);
    expect(order).toEqual(["first begins", "first ends", "second begins"]);
    expect(notes(db)).toEqual(["first", "second"]);
  });

  it("runs the queued transaction after a first one that failed", async () => {
    const db = await database();
    const first = transact(db, async (tx) => {
      note(tx, "lost");
      await Promise.resolve();
      throw new WorkFailed("first failed");
    });
    const second = transact(db, async (tx) => note(tx, "kept"));
    await expect(first).rejects.toThrow("first failed");
    await second;
    expect(notes(db)).toEqual(["kept"]);
  });

  it("joins the open transaction when called from inside the work: the outer rollback undoes the inner writes", async () => {
    const db = await database();
    const failure = transact(db, async (tx) => {
      note(tx, "outer");
      const inner = await transact(tx, async (again) => {
        expect(inTransact(again)).toBe(true);
        note(again, "inner");
        return "joined";
      }, { immediate: true });
      expect(inner).toBe("joined");
      // Still open: the inner call did not commit.
      expect(db.$client.inTransaction).toBe(true);
      throw new WorkFailed("outer failed");
    });
    await expect(failure).rejects.toThrow("outer failed");
    expect(notes(db)).toEqual([]);
  });

  it("tells whether this async chain is inside a transaction on the connection", async () => {
    const db = await database();
    const other = await database();
    expect(inTransact(db)).toBe(false);
    await transact(db, async () => {
      expect(inTransact(db)).toBe(true);
      expect(inTransact(other)).toBe(false);
      await transact(other, async () => {
        expect(inTransact(db)).toBe(true);
        expect(inTransact(other)).toBe(true);
      });
    });
    expect(inTransact(db)).toBe(false);
  });

  it("does not count a callback that outlives the transaction as inside it", async () => {
    const db = await database();
    let later: (() => Promise<void>) | undefined;
    await transact(db, async () => {
      later = () => transact(db, async (tx) => note(tx, "later"));
    });
    if (!later) throw new Error("no callback");
    await later();
    expect(db.$client.inTransaction).toBe(false);
    expect(notes(db)).toEqual(["later"]);
  });

  it("refuses to start inside a transaction opened on the connection without it", async () => {
    const db = await database();
    db.$client.exec("BEGIN");
    await expect(transact(db, async () => undefined)).rejects.toBeInstanceOf(TransactionError);
    db.$client.exec("ROLLBACK");
  });

  it("takes the write lock at BEGIN when immediate: another connection cannot write until it commits", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "redline-transact-"));
    try {
      const file = path.join(dir, "redline.db");
      const db = openDatabase(file);
      const other = openDatabase(file);
      try {
        db.$client.exec("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)");
        other.$client.pragma("busy_timeout = 0");
        await transact(db, async () => {
          expect(() => other.$client.exec("BEGIN IMMEDIATE")).toThrow(/locked|busy/i);
        }, { immediate: true });
        other.$client.exec("BEGIN IMMEDIATE");
        other.$client.exec("COMMIT");
      } finally {
        closeDatabase(other);
        closeDatabase(db);
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
