import { describe, expect, it } from "vitest";
import { reserveHostSlot } from "@/db/host-slots";
import { freshDatabase } from "@/tests/support/database";

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
