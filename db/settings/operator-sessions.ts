import type { Connection, RedlineDb } from "@/db/driver/database";
import { statementsFor } from "@/db/driver/prepared";
import type { operatorSessions } from "@/db/schema";

/** One signed-in browser: a hash of its cookie's id, never the id itself. */
export type OperatorSessionRow = typeof operatorSessions.$inferSelect;

const statements = statementsFor((c: Connection) => ({
  insert: c.prepare<OperatorSessionRow>(
    "INSERT INTO operator_sessions (id_hash, token_fingerprint, created_at, expires_at) VALUES (@idHash, @tokenFingerprint, @createdAt, @expiresAt)",
  ),
  live: c.prepare<[string, string, string], { idHash: string }>(
    "SELECT id_hash AS \"idHash\" FROM operator_sessions WHERE id_hash = ? AND token_fingerprint = ? AND expires_at > ?",
  ),
  remove: c.prepare<[string]>("DELETE FROM operator_sessions WHERE id_hash = ?"),
  removeAll: c.prepare<[]>("DELETE FROM operator_sessions"),
  prune: c.prepare<[string, string]>("DELETE FROM operator_sessions WHERE expires_at <= ? OR token_fingerprint <> ?"),
}));

export async function insertOperatorSession(db: RedlineDb, row: OperatorSessionRow): Promise<void> {
  await statements(db).insert.run(row);
}

/** Whether the session is there, made with this token, and not expired at `nowIso`. */
export async function isLiveOperatorSession(db: RedlineDb, idHash: string, tokenFingerprint: string, nowIso: string): Promise<boolean> {
  return (await statements(db).live.get(idHash, tokenFingerprint, nowIso)) !== undefined;
}

export async function deleteOperatorSession(db: RedlineDb, idHash: string): Promise<void> {
  await statements(db).remove.run(idHash);
}

/** Ends every session, wherever its cookie is: how many there were. */
export async function deleteAllOperatorSessions(db: RedlineDb): Promise<number> {
  return (await statements(db).removeAll.run()).changes;
}

/** Forgets the sessions that can no longer open anything: expired, or made with another token. */
export async function pruneOperatorSessions(db: RedlineDb, tokenFingerprint: string, nowIso: string): Promise<void> {
  await statements(db).prune.run(nowIso, tokenFingerprint);
}
