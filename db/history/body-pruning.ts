import { encodeFull } from "@/db/history/body-codec";
import { restoreBody } from "@/db/history/capture-bodies";
import type { Connection, RedlineDb } from "@/db/driver/database";
import { statementsFor } from "@/db/driver/prepared";

export interface PruneSummary {
  /** Bodies deleted: no capture used them any more. */
  dropped: number;
  /** Bodies still used whose base was deleted: each now stored whole. */
  rebased: number;
}

const statements = statementsFor((c: Connection) => {
  // Hashes are 32-byte blobs at rest and hex everywhere else.
  const history = c.dialect.history;
  const byHash = history.unhex("?");
  const id = `(SELECT b.id FROM capture_bodies b WHERE b.hash = ${byHash})`;
  return {
    used: c.prepare<[string], { id: number }>(`SELECT id FROM captures WHERE body_id = ${id} LIMIT 1`),
    stored: c.prepare<[string], { id: number }>(`SELECT id FROM capture_bodies WHERE hash = ${byHash}`),
    dependents: c.prepare<[string], { hash: string }>(`SELECT ${history.hexOf("hash")} AS hash FROM capture_bodies WHERE base_id = ${id}`),
    rewrite: c.prepare<[Buffer, number, string]>(
      `UPDATE capture_bodies SET encoding = 'zstd', body = ?, base_id = NULL, depth = 0, chain_bytes = ?, run = 0 WHERE hash = ${byHash}`,
    ),
    remove: c.prepare<[string]>(`DELETE FROM capture_bodies WHERE hash = ${byHash}`),
    vendorHashes: c.prepare<[number, number], { hash: string }>(
      `SELECT ${history.hexOf("b.hash")} AS hash FROM captures c JOIN capture_bodies b ON b.id = c.body_id WHERE c.vendor_id = ?
       UNION SELECT ${history.hexOf("hash")} FROM capture_bodies WHERE vendor_id = ?`,
    ),
    disown: c.prepare<[number]>("UPDATE capture_bodies SET vendor_id = NULL, source_id = NULL, position = NULL WHERE vendor_id = ?"),
  };
});

/**
 * Delete those of `candidates` that no capture uses any more. A body still used that is a delta
 * against one deleted is first stored whole (its later chain stays as it is). Runs inside the
 * caller's transaction; whatever deletes captures (a purge, retention) calls this after.
 */
export async function dropUnusedBodies(db: RedlineDb, candidates: Iterable<string>): Promise<PruneSummary> {
  const st = statements(db);
  const doomed = new Set<string>();
  for (const hash of candidates) if (!(await st.used.get(hash)) && (await st.stored.get(hash))) doomed.add(hash);
  let rebased = 0;
  for (const hash of doomed) {
    for (const dependent of await st.dependents.all(hash)) {
      if (doomed.has(dependent.hash)) continue;
      const body = await restoreBody(db, dependent.hash);
      await st.rewrite.run(encodeFull(body), body.byteLength, dependent.hash);
      rebased += 1;
    }
  }
  for (const hash of doomed) await st.remove.run(hash);
  return { dropped: doomed.size, rebased };
}

/** Every body a vendor's captures use or its sources' chains hold: what a purge may delete. */
export async function vendorBodyHashes(db: RedlineDb, vendorId: number): Promise<string[]> {
  return (await statements(db).vendorHashes.all(vendorId, vendorId)).map((r) => r.hash);
}

/** Bodies of a removed vendor that other vendors still use leave its chains: nothing extends them. */
export async function disownVendorBodies(db: RedlineDb, vendorId: number): Promise<void> {
  await statements(db).disown.run(vendorId);
}
