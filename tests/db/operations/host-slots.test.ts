import { describe, expect, it } from "vitest";
import { closeStore, openStore } from "@/db/client";
import { reserveHostSlot } from "@/db/operations/host-slots";
import { freshDatabase } from "@/tests/support/database";
import { describePostgres, withPostgresDatabase } from "@/tests/support/postgres";

describe("shared host slots", () => {
  it("spaces starts to one origin by the interval, whoever reserves them", async () => {
    const db = await freshDatabase();
    const starts = [];
    for (let i = 0; i < 4; i += 1) starts.push(await reserveHostSlot(db, "https://status.acme.test", 1_000, 10_000));
    expect(starts).toEqual([10_000, 11_000, 12_000, 13_000]);
    expect(await reserveHostSlot(db, "https://status.other.test", 1_000, 10_000)).toBe(10_000);
  });

  it("starts at once when the last reservation is older than the interval", async () => {
    const db = await freshDatabase();
    await reserveHostSlot(db, "https://a.test", 1_000, 10_000);
    expect(await reserveHostSlot(db, "https://a.test", 1_000, 10_500)).toBe(11_000);
    expect(await reserveHostSlot(db, "https://a.test", 1_000, 20_000)).toBe(20_000);
  });
});

describePostgres("shared host slots on PostgreSQL", () => {
  const database = withPostgresDatabase({ prefix: "redline_host_slots" });

  it("books starts an interval apart when two connections reserve at once", async () => {
    const [one, two] = await Promise.all([openStore(database.url), openStore(database.url)]);
    try {
      const starts = await Promise.all(Array.from({ length: 40 }, (_, i) => reserveHostSlot(i % 2 === 0 ? one : two, "https://status.acme.test", 1_000, 10_000)));
      expect(starts.sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => 10_000 + i * 1_000));
    } finally {
      await Promise.all([closeStore(one), closeStore(two)]);
    }
  });
});
