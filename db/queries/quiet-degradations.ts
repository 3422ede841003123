import type { Connection, RedlineDb } from "@/db/driver/database";
import { conditionsOf, type Cursor, statementShaped, statementsFor } from "@/db/driver/prepared";
import {
  type ComponentDirectory, type DirectoryEntry, inGroup, namesComponent, namesMatch, type QuietDegradationView, type StoredQuietDegradation, viewQuietDegradation,
} from "@/lib/components/quiet-degradation";

/**
 * Quiet degradations as readers list them: newest first by start, across vendors or of some,
 * with their components named as last listed, narrowed by component group or name.
 */

export interface QuietDegradationFilter {
  vendorIds?: readonly number[];
  /** Only stretches with a component in a group of this name (any case). */
  group?: string;
  /** Only stretches with a component of this name (any case). */
  component?: string;
  /** A watchlist's vendors, each whole (components null) or narrowed to stretches naming one of those components. */
  watch?: ReadonlyArray<{ vendorId: number; components: readonly string[] | null }>;
  /** Started at or after this instant, and before `until`. */
  since?: string;
  until?: string;
  before?: Cursor | null;
}

export interface QuietDegradationItem extends QuietDegradationView {
  /** Where a page ending with it continues (its start and row). */
  cursor: Cursor;
}

export interface QuietDegradationPage {
  rows: QuietDegradationItem[];
  next: Cursor | null;
}

export interface ComponentGroup {
  vendorId: number;
  key: string;
  name: string;
}

interface Row extends Omit<StoredQuietDegradation, "components"> {
  components: string;
}

const ROW = `q.id, q.vendor_id AS "vendorId", d.slug AS "vendorSlug", d.name AS "vendorName", q.from_at AS "from", q.until_at AS "until", q.components`;
const END = { at: "9999-12-31T23:59:59.999Z", id: Number.MAX_SAFE_INTEGER };
/** Rows read per query when a filter narrows them after reading, and the most one page reads before it ends short. */
const BATCH = 200;
const MAX_SCANNED = 2_000;

type EntryRow = Omit<DirectoryEntry, "isGroup"> & { isGroup: number };

const statements = statementsFor((c: Connection) => ({
  groups: c.prepare<[], ComponentGroup>(
    `SELECT s.vendor_id AS "vendorId", c.component_key AS "key", s.name FROM component_states s JOIN components c ON c.id = s.component_id
     WHERE s.until_at IS NULL AND s.is_group = TRUE`,
  ),
  vendorGroups: c.prepare<[number], ComponentGroup>(
    `SELECT s.vendor_id AS "vendorId", c.component_key AS "key", s.name FROM component_states s JOIN components c ON c.id = s.component_id
     WHERE s.vendor_id = ? AND s.until_at IS NULL AND s.is_group = TRUE`,
  ),
  startingAt: c.prepare<[number, string], Row>(
    `SELECT ${ROW} FROM quiet_degradations q JOIN vendors d ON d.id = q.vendor_id WHERE q.vendor_id = ? AND q.from_at = ? ORDER BY q.id DESC LIMIT 1`,
  ),
}));

/**
 * Some of the vendor's components by key, each as last listed (its latest run, one seek each), with
 * the groups they sit in: a CDN lists hundreds, of which a stretch names a few.
 */
export async function loadComponentEntries(db: RedlineDb, vendorId: number, keys: readonly string[]): Promise<ComponentDirectory> {
  const out = new Map<string, DirectoryEntry>();
  const read = async (wanted: readonly string[]) => {
    if (wanted.length === 0) return;
    const rows = await statementShaped<{ vendorId: number; keys: string }, EntryRow>(
      db.connection,
      `SELECT c.component_key AS "key", s.name, s.group_key AS "groupKey", s.is_group AS "isGroup"
       FROM components c JOIN component_states s ON s.id = (
         SELECT x.id FROM component_states x WHERE x.component_id = c.id ORDER BY x.from_at DESC, x.id DESC LIMIT 1)
       WHERE c.vendor_id = @vendorId AND c.component_key IN (${db.connection.dialect.queries.listedValues("keys")})`,
    ).all({ vendorId, keys: JSON.stringify(wanted) });
    for (const r of rows) out.set(r.key, { ...r, isGroup: Boolean(r.isGroup) });
  };
  await read([...new Set(keys)]);
  await read([...new Set([...out.values()].flatMap((e) => (e.groupKey !== null && !out.has(e.groupKey) ? [e.groupKey] : [])))]);
  return out;
}

/** The component groups listed now, of one vendor or of all, by name. */
export async function listComponentGroups(db: RedlineDb, vendorId?: number): Promise<ComponentGroup[]> {
  const st = statements(db);
  const rows = vendorId === undefined ? await st.groups.all() : await st.vendorGroups.all(vendorId);
  return rows.sort((a, b) => a.name.localeCompare(b.name, "en") || a.vendorId - b.vendorId || (a.key < b.key ? -1 : 1));
}

function storedOf(row: Row): StoredQuietDegradation {
  return { ...row, components: JSON.parse(row.components) as string[] };
}

/** Names stretches' components, reading each component once however many stretches name it. */
function namer(db: RedlineDb) {
  const known = new Map<number, { entries: Map<string, DirectoryEntry>; asked: Set<string> }>();
  return async (batch: readonly StoredQuietDegradation[]): Promise<QuietDegradationView[]> => {
    const wanted = new Map<number, Set<string>>();
    for (const stored of batch) {
      const vendor = known.get(stored.vendorId);
      for (const key of stored.components) if (!vendor?.asked.has(key)) wanted.set(stored.vendorId, (wanted.get(stored.vendorId) ?? new Set()).add(key));
    }
    for (const [vendorId, keys] of wanted) {
      let vendor = known.get(vendorId);
      if (!vendor) known.set(vendorId, (vendor = { entries: new Map(), asked: new Set() }));
      for (const [key, entry] of await loadComponentEntries(db, vendorId, [...keys])) vendor.entries.set(key, entry);
      for (const key of keys) vendor.asked.add(key);
    }
    return batch.map((stored) => viewQuietDegradation(stored, known.get(stored.vendorId)?.entries ?? new Map()));
  };
}

/** The vendors a filter can reach, or null for every vendor; an empty list when none can match. */
async function reachableVendors(db: RedlineDb, filter: QuietDegradationFilter): Promise<number[] | null> {
  let ids: number[] | null = filter.vendorIds ? [...filter.vendorIds] : null;
  if (filter.watch) ids = (ids ?? filter.watch.map((w) => w.vendorId)).filter((id) => filter.watch?.some((w) => w.vendorId === id));
  if (filter.group !== undefined) {
    const group = filter.group;
    const having = new Set((await listComponentGroups(db)).filter((g) => namesMatch(g.name, group)).map((g) => g.vendorId));
    ids = (ids ?? [...having]).filter((id) => having.has(id));
  }
  return ids;
}

function matches(view: QuietDegradationView, vendorId: number, filter: QuietDegradationFilter): boolean {
  if (filter.group !== undefined && !inGroup(view, filter.group)) return false;
  if (filter.component !== undefined && !namesComponent(view, filter.component)) return false;
  const member = filter.watch?.find((w) => w.vendorId === vendorId);
  if (member?.components && !member.components.some((name) => namesComponent(view, name))) return false;
  return true;
}

async function rowsBefore(connection: Connection, vendors: readonly number[] | null, filter: QuietDegradationFilter, before: Cursor, limit: number): Promise<Row[]> {
  const { where, params, add, addList } = conditionsOf();
  if (vendors?.length === 1) add("q.vendor_id = @vendorId", "vendorId", vendors[0]);
  else addList(`q.vendor_id IN (${connection.dialect.queries.listedValues("vendorIds", "bigint")})`, "vendorIds", vendors ?? undefined);
  add("q.from_at >= @since", "since", filter.since);
  add("q.from_at < @until", "until", filter.until);
  return statementShaped<Record<string, string | number>, Row>(
    connection,
    `SELECT ${ROW} FROM quiet_degradations q JOIN vendors d ON d.id = q.vendor_id
     WHERE (q.from_at, q.id) < (@at, @id)${where.map((w) => ` AND ${w}`).join("")} ORDER BY q.from_at DESC, q.id DESC LIMIT @limit`,
  ).all({ ...params, at: before.at, id: before.id, limit });
}

/**
 * Quiet degradations newest first (by start, then row), a page at a time. Filters on names are
 * applied once the components are named; a page that reads many stretches without filling ends
 * short, with a cursor to go on from.
 */
export async function listQuietDegradations(db: RedlineDb, filter: QuietDegradationFilter, limit: number): Promise<QuietDegradationPage> {
  const vendors = await reachableVendors(db, filter);
  if (vendors !== null && vendors.length === 0) return { rows: [], next: null };
  const name = namer(db);
  const narrowed = filter.group !== undefined || filter.component !== undefined || filter.watch?.some((w) => w.components !== null) === true;
  const rows: QuietDegradationItem[] = [];
  let position = filter.before ?? END;
  let scanned = 0;
  for (;;) {
    const batch = await rowsBefore(db.connection, vendors, filter, position, narrowed ? BATCH : limit + 1);
    const stored = batch.map(storedOf);
    const views = await name(stored);
    for (const [i, view] of views.entries()) {
      const row = stored[i];
      if (!row) continue;
      position = { at: row.from, id: row.id };
      scanned += 1;
      if (matches(view, row.vendorId, filter)) rows.push({ ...view, cursor: position });
      if (rows.length > limit) break;
    }
    const exhausted = batch.length < (narrowed ? BATCH : limit + 1);
    if (rows.length > limit) return { rows: rows.slice(0, limit), next: rows[limit - 1]?.cursor ?? null };
    if (exhausted) return { rows, next: null };
    if (scanned >= MAX_SCANNED) return { rows, next: position };
  }
}

/** The stretch of the vendor that started at `from`, named; undefined when there is none (any more). */
export async function findQuietDegradation(db: RedlineDb, vendorId: number, from: string): Promise<QuietDegradationView | undefined> {
  const row = await statements(db).startingAt.get(vendorId, from);
  return row ? (await namer(db)([storedOf(row)]))[0] : undefined;
}

/**
 * A page of every vendor's stretches where none buries the others: stretches newest first until
 * `lines` of them are shown with at most `perVendor` of each vendor, the vendors' others read on
 * the way (to be folded into "N more"), at most `maxScanned` in all. A vendor changing routinely
 * (a CDN re-routing data centres every hour) then takes a few lines of the page, not the page.
 */
export async function listQuietDegradationsPerVendor(
  db: RedlineDb,
  filter: QuietDegradationFilter,
  options: { lines: number; perVendor: number; maxScanned: number },
): Promise<QuietDegradationPage> {
  const rows: QuietDegradationItem[] = [];
  const seen = new Map<string, number>();
  let shown = 0;
  let before = filter.before ?? null;
  while (rows.length < options.maxScanned) {
    const page = await listQuietDegradations(db, { ...filter, before }, Math.min(BATCH, options.maxScanned - rows.length));
    for (const [i, row] of page.rows.entries()) {
      rows.push(row);
      const count = (seen.get(row.vendor.slug) ?? 0) + 1;
      seen.set(row.vendor.slug, count);
      if (count <= options.perVendor) shown += 1;
      if (shown >= options.lines) return { rows, next: i < page.rows.length - 1 || page.next ? row.cursor : null };
    }
    if (!page.next) return { rows, next: null };
    before = page.next;
  }
  return { rows, next: before };
}
