import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeStore, type RedlineDb } from "@/db/client";
import { MOST_ROWS, rowsSql, writeRows } from "@/db/driver/batch";
import { ensureVendor } from "@/db/settings/vendors";
import { countRows, freshDatabase, queryRows } from "@/tests/support/database";

const COMPONENTS = {
  into: "INSERT INTO components (vendor_id, component_key)",
  row: "(?, ?)",
  tail: `ON CONFLICT (vendor_id, component_key) DO UPDATE SET component_key = excluded.component_key RETURNING id, component_key AS "componentKey"`,
};
const SOURCES = { into: "INSERT INTO sources (vendor_id, url, platform)", row: "(?, ?, ?)", tail: "ON CONFLICT (vendor_id, url) DO NOTHING" };

describe("rows of one table written a statement at a time (db/driver/batch.ts)", () => {
  let db: RedlineDb;
  let vendorId: number;
  beforeAll(async () => {
    db = await freshDatabase();
    vendorId = (await ensureVendor(db, { slug: "acme", name: "Acme", platform: "statuspage" })).id;
  });
  afterAll(async () => {
    await closeStore(db);
  });

  it("spells one statement for a row count: the head, the row that many times, the tail", () => {
    expect(rowsSql({ into: "INSERT INTO t (a, b)", row: "(?, ?)", tail: "RETURNING a" }, 3)).toBe("INSERT INTO t (a, b) VALUES (?, ?), (?, ?), (?, ?) RETURNING a");
    expect(rowsSql({ into: "INSERT INTO t (a)", row: "(lower(?))" }, 1)).toBe("INSERT INTO t (a) VALUES (lower(?))");
  });

  it("writes nothing for no rows, and every row past the most one statement takes", async () => {
    expect(await writeRows(db.connection, SOURCES, [])).toEqual([]);
    expect(await countRows(db, "sources")).toBe(0);
    const count = MOST_ROWS * 2 + 3;
    const rows = Array.from({ length: count }, (_, i) => [vendorId, `https://example.test/${i}.json`, "statuspage"]);
    expect(await writeRows(db.connection, SOURCES, rows)).toEqual([]);
    expect(await countRows(db, "sources")).toBe(count);
    // Written again: the conflict clause holds for every statement of the batch.
    await writeRows(db.connection, SOURCES, rows);
    expect(await countRows(db, "sources")).toBe(count);
  });

  it("returns what each row's statement returns, new and upserted rows alike, matched by their key", async () => {
    const keys = Array.from({ length: MOST_ROWS + 6 }, (_, i) => `c${i}`);
    const first = await writeRows<{ id: number; componentKey: string }>(db.connection, COMPONENTS, keys.map((k) => [vendorId, k]));
    expect(first.map((r) => r.componentKey).sort()).toEqual([...keys].sort());
    expect(new Set(first.map((r) => r.id)).size).toBe(keys.length);
    const ids = new Map(first.map((r) => [r.componentKey, r.id]));
    const again = [...keys.slice(0, 10), "new-1", "new-2"];
    const second = await writeRows<{ id: number; componentKey: string }>(db.connection, COMPONENTS, again.map((k) => [vendorId, k]));
    expect(second).toHaveLength(again.length);
    for (const row of second) if (ids.has(row.componentKey)) expect(row.id).toBe(ids.get(row.componentKey));
    const stored = await queryRows<{ n: number }>(db, "SELECT count(*) AS n FROM components WHERE vendor_id = ?", vendorId);
    expect(stored[0]?.n).toBe(keys.length + 2);
  });
});
