import { desc } from "drizzle-orm";
import type { RedlineDb } from "@/db/client";
import { supervisorEvents } from "@/db/schema";

/** What the supervisor of `npm start` saw happen to one of its processes. */
export type SupervisorEventRow = typeof supervisorEvents.$inferSelect;
export type SupervisorEvent = Omit<SupervisorEventRow, "id">;
export type SupervisorEventKind = SupervisorEvent["event"];

export async function recordSupervisorEvent(db: RedlineDb, event: SupervisorEvent): Promise<void> {
  db.insert(supervisorEvents).values(event).run();
}

/** The most recent events, newest first. */
export async function listSupervisorEvents(db: RedlineDb, limit = 20): Promise<SupervisorEventRow[]> {
  return db.select().from(supervisorEvents).orderBy(desc(supervisorEvents.at), desc(supervisorEvents.id)).limit(limit).all();
}
