import type Database from "better-sqlite3";
import { encodeFull } from "@/db/body-codec";
import { restoreBody } from "@/db/capture-bodies";

export interface PruneSummary {
  /** Bodies deleted: no capture used them any more. */
  dropped: number;
  /** Bodies still used whose base was deleted: each now stored whole. */
  rebased: number;
}

/**
 * Delete those of `candidates` that no capture uses any more. A body still used that is a delta
 * against one deleted is first stored whole (its later chain stays as it is). Runs inside the
 * caller's transaction; whatever deletes captures (a purge, retention) calls this after.
 */
export function dropUnusedBodies(sqlite: Database.Database, candidates: Iterable<string>): PruneSummary {
  const byHash = "(SELECT b.id FROM capture_bodies b WHERE b.hash = unhex(?))";
  const used = sqlite.prepare<[string], { id: number }>(`SELECT id FROM captures WHERE body_id = ${byHash} LIMIT 1`);
  const stored = sqlite.prepare<[string], { id: number }>("SELECT id FROM capture_bodies WHERE hash = unhex(?)");
  const dependents = sqlite.prepare<[string], { hash: string }>(`SELECT lower(hex(hash)) AS hash FROM capture_bodies WHERE base_id = ${byHash}`);
  const rewrite = sqlite.prepare<[Buffer, number, string]>(
    "UPDATE capture_bodies SET encoding = 'zstd', body = ?, base_id = NULL, depth = 0, chain_bytes = ?, run = 0 WHERE hash = unhex(?)",
  );
  const remove = sqlite.prepare<[string]>("DELETE FROM capture_bodies WHERE hash = unhex(?)");
  const doomed = new Set<string>();
  for (const hash of candidates) if (!used.get(hash) && stored.get(hash)) doomed.add(hash);
  let rebased = 0;
  for (const hash of doomed) {
    for (const dependent of dependents.all(hash)) {
      if (doomed.has(dependent.hash)) continue;
      const body = restoreBody(sqlite, dependent.hash);
      rewrite.run(encodeFull(body), body.byteLength, dependent.hash);
      rebased += 1;
    }
  }
  for (const hash of doomed) remove.run(hash);
  return { dropped: doomed.size, rebased };
}

/** Every body a vendor's captures use or its sources' chains hold: what a purge may delete. */
export function vendorBodyHashes(sqlite: Database.Database, vendorId: number): string[] {
  return sqlite
    .prepare<[number, number], { hash: string }>(
      `SELECT lower(hex(b.hash)) AS hash FROM captures c JOIN capture_bodies b ON b.id = c.body_id WHERE c.vendor_id = ?
       UNION SELECT lower(hex(hash)) FROM capture_bodies WHERE vendor_id = ?`,
    )
    .all(vendorId, vendorId)
    .map((r) => r.hash);
}

/** Bodies of a removed vendor that other vendors still use leave its chains: nothing extends them. */
export function disownVendorBodies(sqlite: Database.Database, vendorId: number): void {
  sqlite.prepare<[number]>("UPDATE capture_bodies SET vendor_id = NULL, source_id = NULL, position = NULL WHERE vendor_id = ?").run(vendorId);
}
