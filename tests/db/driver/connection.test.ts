import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeStore, openStore, POSTGRES_MIGRATIONS_DIR, redact, type RedlineDb } from "@/db/client";
import { transact } from "@/db/driver/transaction";
import { describePostgres, runPostgresCluster, withPostgresDatabase } from "@/tests/support/postgres";

interface Row {
  vendorId: number;
  enabled: number;
  derivedWith: string | null;
}

/** What both connections must do alike: the values rows carry, run results, transactions. */
function connectionContract(open: () => Promise<RedlineDb>) {
  let db: RedlineDb;
  beforeAll(async () => {
    db = await open();
  });
  afterAll(async () => {
    await closeStore(db);
  });

  it("returns integers and booleans as numbers, JSON as text, and aliases in their case", async () => {
    const c = db.connection;
    const insert = await c
      .prepare<{ slug: string; at: string }>(
        `INSERT INTO vendors (slug, name, platform, origin, enabled, derived_with, created_at) VALUES (@slug, @slug, 'statuspage', 'manual', TRUE, '{"a": [1]}', @at) RETURNING id`,
      )
      .run({ slug: "acme", at: "2026-01-01T00:00:00.000Z" });
    expect(insert.changes).toBe(1);
    expect(insert.lastInsertRowid).toBeGreaterThan(0);
    const row = await c.prepare<[number], Row>("SELECT id AS vendorId, enabled, derived_with AS derivedWith FROM vendors WHERE id = ?").get(insert.lastInsertRowid);
    expect(row?.vendorId).toBe(insert.lastInsertRowid);
    expect(row?.enabled).toBe(1);
    expect(JSON.parse(row?.derivedWith ?? "null")).toEqual({ a: [1] });
    const count = await c.prepare<[], { n: number }>("SELECT count(*) AS n FROM vendors").get();
    expect(count?.n).toBe(1);
  });

  it("commits a transaction's writes together and rolls all back when its work throws", async () => {
    const c = db.connection;
    const add = c.prepare<[string]>("INSERT INTO vendors (slug, name, platform, origin, enabled, created_at) VALUES (?, 'x', 'statuspage', 'manual', TRUE, 'now')");
    const count = c.prepare<[], { n: number }>("SELECT count(*) AS n FROM vendors");
    const before = (await count.get())?.n ?? 0;
    await expect(
      transact(db, async () => {
        await add.run("rolled-1");
        await transact(db, async () => add.run("rolled-2"));
        throw new Error("work failed");
      }),
    ).rejects.toThrow("work failed");
    expect((await count.get())?.n).toBe(before);
    await transact(db, async () => {
      await add.run("kept-1");
      await add.run("kept-2");
    });
    expect((await count.get())?.n).toBe(before + 2);
  });

  it("runs two transactions begun together one after the other, each seeing the other's commit", async () => {
    const c = db.connection;
    const next = c.prepare<[], { n: number }>("SELECT coalesce(max(next_start_ms), 0) AS n FROM host_slots");
    const put = c.prepare<[string, number]>("INSERT INTO host_slots (origin, next_start_ms) VALUES (?, ?)");
    const bump = (origin: string) =>
      transact(
        db,
        async () => {
          const n = (await next.get())?.n ?? 0;
          await put.run(origin, n + 1);
        },
        { immediate: true },
      );
    await Promise.all([bump("https://a.example"), bump("https://b.example"), bump("https://c.example")]);
    const rows = await c.prepare<[], { n: number }>("SELECT next_start_ms AS n FROM host_slots ORDER BY n").all();
    expect(rows.map((r) => r.n)).toEqual([1, 2, 3]);
  });
}

describe("the SQLite connection", () => {
  connectionContract(() => openStore(":memory:"));
});

describePostgres("the PostgreSQL connection", () => {
  const database = withPostgresDatabase({ prefix: "redline_connection" });
  connectionContract(() => openStore(database.url));

  it("applies migrations once when several processes open an empty database at the same time", async () => {
    const cluster = runPostgresCluster();
    const empty = await cluster.createDatabase("redline_migrate_race");
    const opened = await Promise.all([openStore(empty), openStore(empty), openStore(empty)]);
    try {
      const applied = await opened[0]?.connection.prepare<[], { n: number }>("SELECT count(*) AS n FROM drizzle.__drizzle_migrations").get();
      const files = fs.readdirSync(POSTGRES_MIGRATIONS_DIR).filter((f) => f.endsWith(".sql"));
      expect(applied?.n).toBe(files.length);
    } finally {
      await Promise.all(opened.map(closeStore));
      await cluster.dropDatabase(empty);
    }
  });

  it("says SQLite-only code was reached rather than failing obscurely", async () => {
    const db = await openStore(database.url);
    try {
      expect(() => db.$client.prepare("SELECT 1")).toThrow(/SQLite-only code reached on PostgreSQL/);
    } finally {
      await closeStore(db);
    }
  });
});

describe("redact", () => {
  it("hides a URL's password", () => {
    expect(redact("postgres://redline:s3cret@db:5432/archive")).toBe("postgres://redline:***@db:5432/archive");
  });
});
