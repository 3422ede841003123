import { eq, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import { integer, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describePostgres, withPostgresDatabase } from "@/tests/support/postgres";

const notes = pgTable("notes", {
  id: integer("id").primaryKey(),
  title: text("title").notNull(),
  payload: jsonb("payload").$type<{ tags: string[] }>().notNull(),
});

describePostgres("Drizzle's node-postgres driver over a pg.Pool", () => {
  const database = withPostgresDatabase({ prefix: "drizzle_smoke" });
  let pool: pg.Pool;
  beforeAll(() => {
    pool = new pg.Pool({ connectionString: database.url, max: 2 });
  });
  afterAll(async () => {
    await pool.end();
  });

  it("runs queries on the database it was given", async () => {
    const db = drizzle({ client: pool });
    const current = await db.execute<{ name: string }>(sql`SELECT current_database() AS name`);
    expect(current.rows[0]?.name).toBe(new URL(database.url).pathname.slice(1));

    await db.execute(sql`CREATE TABLE notes (id integer PRIMARY KEY, title text NOT NULL, payload jsonb NOT NULL)`);
    await db.insert(notes).values([
      { id: 1, title: "first", payload: { tags: ["a"] } },
      { id: 2, title: "second", payload: { tags: ["b", "c"] } },
    ]);
    expect(await db.select().from(notes).where(eq(notes.id, 2))).toEqual([{ id: 2, title: "second", payload: { tags: ["b", "c"] } }]);
  });
});
