import type { RedlineDb } from "@/db/client";
import { unpackVersionContent } from "@/db/history/version-content";
import { queryRows } from "@/tests/support/database";

/** A version's row; `V` is what the test takes its changes' values to be (they are decoded JSON). */
export interface VersionRow<V = unknown> {
  providerId: string;
  seq: number;
  observedAt: string;
  hash: string;
  kinds: string[];
  changes: Array<{ field: string; kind: string; before: V; after: V }>;
  headline: string;
}

/** Every version recorded, with its incident's provider id and its changes decoded, by incident and sequence; on either database. */
export async function readVersionRows<V = unknown>(db: RedlineDb): Promise<Array<VersionRow<V>>> {
  const rows = await queryRows<Omit<VersionRow, "kinds" | "changes" | "headline"> & { kinds: string; content: Buffer }>(
    db,
    `SELECT i.provider_id AS providerId, v.seq, v.observed_at AS observedAt, v.hash, v.kinds, v.content FROM incident_versions v
     JOIN incidents i ON i.id = v.incident_id ORDER BY i.provider_id, v.seq`,
  );
  return rows.map(({ content, kinds, ...row }) => {
    const unpacked = unpackVersionContent(content);
    return { ...row, kinds: JSON.parse(kinds) as string[], changes: unpacked.changes as unknown as VersionRow<V>["changes"], headline: unpacked.headline };
  });
}
