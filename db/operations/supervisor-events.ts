import type { Connection, RedlineDb } from "@/db/driver/database";
import { statementsFor } from "@/db/driver/prepared";
import type { supervisorEvents } from "@/db/schema";

/** What the supervisor of `npm start` saw happen to one of its processes. */
export type SupervisorEventRow = typeof supervisorEvents.$inferSelect;
export type SupervisorEvent = Omit<SupervisorEventRow, "id">;
export type SupervisorEventKind = SupervisorEvent["event"];

const statements = statementsFor((c: Connection) => ({
  record: c.prepare<SupervisorEvent>("INSERT INTO supervisor_events (at, process, event, detail) VALUES (@at, @process, @event, @detail)"),
  recent: c.prepare<[number], SupervisorEventRow>("SELECT id, at, process, event, detail FROM supervisor_events ORDER BY at DESC, id DESC LIMIT ?"),
}));

export async function recordSupervisorEvent(db: RedlineDb, event: SupervisorEvent): Promise<void> {
  await statements(db).record.run({ ...event, detail: event.detail ?? null });
}

/** The most recent events, newest first. */
export async function listSupervisorEvents(db: RedlineDb, limit = 20): Promise<SupervisorEventRow[]> {
  return statements(db).recent.all(limit);
}
