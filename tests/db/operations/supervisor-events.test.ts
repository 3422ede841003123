import { describe, expect, it } from "vitest";
import type { RedlineDb } from "@/db/client";
import { listProcessStatus } from "@/db/queries/operator-status";
import { listSupervisorEvents, recordSupervisorEvent, type SupervisorEvent } from "@/db/operations/supervisor-events";
import { freshDatabase } from "@/tests/support/database";

async function record(db: RedlineDb, at: string, process: string, event: SupervisorEvent["event"], detail: string): Promise<void> {
  await recordSupervisorEvent(db, { at: `2026-03-04T${at}:00.000Z`, process, event, detail });
}

describe("supervisor events", () => {
  it("lists the most recent events first", async () => {
    const db = await freshDatabase();
    await record(db, "10:00", "web", "started", "pid 10");
    await record(db, "10:05", "web", "exited", "code 1, up 5 min");
    await record(db, "10:05", "web", "restarting", "in 1 s");
    expect((await listSupervisorEvents(db, 2)).map((e) => [e.event, e.detail])).toEqual([
      ["restarting", "in 1 s"],
      ["exited", "code 1, up 5 min"],
    ]);
  });

  it("sums up each process's restarts in the window, with the exit before its last restart and a give-up", async () => {
    const db = await freshDatabase();
    await record(db, "08:00", "web", "exited", "code 9, up 1 s");
    await record(db, "08:00", "web", "restarting", "in 1 s");
    await record(db, "10:00", "web", "started", "pid 10");
    await record(db, "10:00", "poller", "started", "pid 11");
    await record(db, "10:05", "web", "exited", "code 1, up 5 min");
    await record(db, "10:05", "web", "restarting", "in 1 s");
    await record(db, "10:06", "web", "started", "pid 12");
    await record(db, "10:09", "web", "exited", "SIGKILL, up 3 min");
    await record(db, "10:09", "web", "restarting", "in 2 s");
    await record(db, "10:10", "web", "started", "pid 13");
    await record(db, "11:00", "web", "exited", "SIGTERM, up 50 min");
    await record(db, "11:00", "poller", "exited", "code 2, up 1 h");
    await record(db, "11:00", "poller", "gave-up", "5 crashes within 2 min");
    expect(await listProcessStatus(db, "2026-03-04T09:00:00.000Z")).toEqual([
      { process: "poller", restarts: 0, lastRestartAt: null, lastCrash: null, lastStartedAt: "2026-03-04T10:00:00.000Z", gaveUpAt: "2026-03-04T11:00:00.000Z" },
      { process: "web", restarts: 2, lastRestartAt: "2026-03-04T10:09:00.000Z", lastCrash: "SIGKILL, up 3 min", lastStartedAt: "2026-03-04T10:10:00.000Z", gaveUpAt: null },
    ]);
  });
});
