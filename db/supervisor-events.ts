import { desc } from "drizzle-orm";
import type { RedlineDb } from "@/db/client";
import { supervisorEvents } from "@/db/schema";

/** What the supervisor of `npm start` saw happen to one of its processes. */
export type SupervisorEventRow = typeof supervisorEvents.$inferSelect;
export type SupervisorEvent = Omit<SupervisorEventRow, "id">;
export type SupervisorEventKind = SupervisorEvent["event"];

export function recordSupervisorEvent(db: RedlineDb, event: SupervisorEvent): void {
  db.insert(supervisorEvents).values(event).run();
}

/** The most recent events, newest first. */
export function listSupervisorEvents(db: RedlineDb, limit = 20): SupervisorEventRow[] {
  return db.select().from(supervisorEvents).orderBy(desc(supervisorEvents.at), desc(supervisorEvents.id)).limit(limit).all();
}
