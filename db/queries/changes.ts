import type { RedlineDb } from "@/db/client";
import { type Cursor, encodeCursor, preparedFor } from "@/db/queries/prepared";
import type { ChangeKindName } from "@/lib/change-kinds";

export interface ChangeRow {
  versionId: number;
  seq: number;
  observedAt: string;
  kinds: ChangeKindName[];
  summary: string;
  headline: string;
  providerId: string;
  title: string;
  impact: string | null;
  vendorSlug: string;
  vendorName: string;
}

export interface ChangePage {
  rows: ChangeRow[];
  /** Cursor of the next (older) page, or null at the end. */
  next: string | null;
}

interface RawChange extends Omit<ChangeRow, "kinds"> {
  kinds: string;
}

const COLUMNS = `v.id AS versionId, v.seq, v.observed_at AS observedAt, v.kinds, v.summary, v.headline, i.provider_id AS providerId,
  i.title, i.impact, d.slug AS vendorSlug, d.name AS vendorName`;
const FROM = `incident_versions v JOIN incidents i ON i.id = v.incident_id JOIN vendors d ON d.id = v.vendor_id`;

const statements = preparedFor((sqlite) => ({
  all: sqlite.prepare<[string, number, number], RawChange>(
    `SELECT ${COLUMNS} FROM ${FROM} WHERE (v.observed_at, v.id) < (?, ?) ORDER BY v.observed_at DESC, v.id DESC LIMIT ?`,
  ),
  byVendor: sqlite.prepare<[number, string, number, number], RawChange>(
    `SELECT ${COLUMNS} FROM ${FROM} WHERE v.vendor_id = ? AND (v.observed_at, v.id) < (?, ?) ORDER BY v.observed_at DESC, v.id DESC LIMIT ?`,
  ),
  idsByKind: sqlite.prepare<[string, string, number, number], { id: number; at: string }>(
    `SELECT version_id AS id, observed_at AS at FROM version_kinds WHERE kind = ? AND (observed_at, version_id) < (?, ?)
     ORDER BY observed_at DESC, version_id DESC LIMIT ?`,
  ),
  idsByVendorKind: sqlite.prepare<[number, string, string, number, number], { id: number; at: string }>(
    `SELECT version_id AS id, observed_at AS at FROM version_kinds WHERE vendor_id = ? AND kind = ? AND (observed_at, version_id) < (?, ?)
     ORDER BY observed_at DESC, version_id DESC LIMIT ?`,
  ),
  byIds: sqlite.prepare<[string], RawChange>(`SELECT ${COLUMNS} FROM ${FROM} WHERE v.id IN (SELECT value FROM json_each(?))`),
}));

function toRow(raw: RawChange): ChangeRow {
  return { ...raw, kinds: JSON.parse(raw.kinds) as ChangeKindName[] };
}

/**
 * Changes newest first, optionally only some kinds and one vendor, a page at a time. Each kind is
 * read from its own index in time order and the lists merged, so a filter never sorts the archive.
 */
export function listChanges(
  db: RedlineDb,
  filter: { kinds?: readonly ChangeKindName[]; vendorId?: number; before?: Cursor | null },
  limit: number,
): ChangePage {
  const st = statements(db);
  const start = filter.before ?? { at: "9999-12-31T23:59:59.999Z", id: Number.MAX_SAFE_INTEGER };
  let rows: ChangeRow[];
  if (!filter.kinds || filter.kinds.length === 0) {
    const raw = filter.vendorId === undefined
      ? st.all.all(start.at, start.id, limit + 1)
      : st.byVendor.all(filter.vendorId, start.at, start.id, limit + 1);
    rows = raw.map(toRow);
  } else {
    const merged = new Map<number, string>();
    for (const kind of new Set(filter.kinds)) {
      const ids = filter.vendorId === undefined
        ? st.idsByKind.all(kind, start.at, start.id, limit + 1)
        : st.idsByVendorKind.all(filter.vendorId, kind, start.at, start.id, limit + 1);
      for (const { id, at } of ids) merged.set(id, at);
    }
    const newest = [...merged.entries()].sort((a, b) => (a[1] === b[1] ? b[0] - a[0] : a[1] < b[1] ? 1 : -1)).slice(0, limit + 1);
    const byId = new Map(st.byIds.all(JSON.stringify(newest.map(([id]) => id))).map((r) => [r.versionId, toRow(r)]));
    rows = newest.map(([id]) => byId.get(id)).filter((r): r is ChangeRow => r !== undefined);
  }
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { rows: page, next: rows.length > limit && last ? encodeCursor({ at: last.observedAt, id: last.versionId }) : null };
}
