import { describe, expect, it } from "vitest";
import { listThrottleTelemetry } from "@/db/operations/hooks";
import { type ThrottleAlert, ThrottleTelemetry } from "@/server/hooks/throttle-telemetry";
import { freshDatabase, sqlOf } from "@/tests/support/database";

const LIMIT = { ratePerSecond: 1, burst: 3 };
const T0 = Date.parse("2026-03-04T12:00:00.000Z");
/** Triggers that make every write of the counts fail, as a locked or unreachable database does. */
const REFUSE_WRITES = {
  sqlite: `CREATE TRIGGER refuse_insert BEFORE INSERT ON throttle_telemetry BEGIN SELECT RAISE(ABORT, 'database is locked'); END;
    CREATE TRIGGER refuse_update BEFORE UPDATE ON throttle_telemetry BEGIN SELECT RAISE(ABORT, 'database is locked'); END;`,
  postgres: `CREATE FUNCTION refuse_write() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'database is locked'; END $$;
    CREATE TRIGGER refuse_write BEFORE INSERT OR UPDATE ON throttle_telemetry FOR EACH ROW EXECUTE FUNCTION refuse_write();`,
};
const ALLOW_WRITES = {
  sqlite: "DROP TRIGGER refuse_insert; DROP TRIGGER refuse_update;",
  postgres: "DROP TRIGGER refuse_write ON throttle_telemetry; DROP FUNCTION refuse_write();",
};

describe("throttle telemetry", () => {
  it("keeps the counts when a flush's write throws, and the next flush writes them all", async () => {
    const db = await freshDatabase();
    const lines: string[] = [];
    const telemetry = new ThrottleTelemetry(() => db, 3_600_000, () => undefined, (line) => lines.push(line));
    for (let i = 0; i < 3; i += 1) await telemetry.throttled("source:acme", T0 + i * 1_000, LIMIT);
    await db.connection.exec(sqlOf(db, REFUSE_WRITES));
    await expect(telemetry.flush()).rejects.toThrow(expect.objectContaining({ kind: "telemetry", message: expect.stringContaining("database is locked") }));
    await telemetry.throttled("source:acme", T0 + 5_000, LIMIT);
    await telemetry.throttled("ceiling", T0 + 6_000, LIMIT);
    await expect(telemetry.flush()).rejects.toThrow(/unable to write the throttle counts of 2 scopes/);
    await db.connection.exec(sqlOf(db, ALLOW_WRITES));
    await telemetry.flush();
    const counts = async () => (await listThrottleTelemetry(db)).map(({ scope, throttled, lastThrottledAt }) => ({ scope, throttled, lastThrottledAt }));
    expect(await counts()).toEqual([
      { scope: "ceiling", throttled: 1, lastThrottledAt: new Date(T0 + 6_000).toISOString() },
      { scope: "source:acme", throttled: 4, lastThrottledAt: new Date(T0 + 5_000).toISOString() },
    ]);
    await telemetry.flush();
    expect((await counts()).map((c) => c.throttled)).toEqual([1, 4]);
    expect(telemetry.unflushedScopes).toBe(0);
    // The ceiling's first refusal came while writes were refused: its alert went out unrecorded.
    expect(lines).toEqual(["telemetry: unable to record the alert for ceiling: database is locked"]);
  });

  it("still alerts, once per interval, and logs it when the alert cannot be recorded", async () => {
    const db = await freshDatabase();
    const alerts: ThrottleAlert[] = [];
    const lines: string[] = [];
    await db.connection.exec(sqlOf(db, REFUSE_WRITES));
    const telemetry = new ThrottleTelemetry(() => db, 3_600_000, (a) => alerts.push(a), (line) => lines.push(line));
    for (let i = 0; i < 5; i += 1) await telemetry.throttled("source:acme", T0 + i * 1_000, LIMIT);
    expect(alerts).toHaveLength(1);
    expect(lines).toEqual(["telemetry: unable to record the alert for source:acme: database is locked"]);
    await db.connection.exec(sqlOf(db, ALLOW_WRITES));
    await telemetry.flush();
    expect(await listThrottleTelemetry(db)).toMatchObject([{ scope: "source:acme", throttled: 5, lastAlertAt: null }]);
  });
});
