import type { Connection, RedlineDb } from "@/db/driver/database";
import { statementsFor } from "@/db/driver/prepared";
import { unpackVersionText } from "@/db/history/version-content";
import { readVersionState } from "@/db/history/version-states";
import { getVendorBySlug } from "@/db/settings/vendors";
import type { ComponentStatus } from "@/lib/components/component-status";
import type { CoveringRun, IncidentAt, StatusFacts } from "@/lib/components/status-view";
import { type Impact, isOpenIncident } from "@/lib/incident";

/**
 * The store's "as of a moment" (Open Terms Archive's findByDate, for a whole status page): the
 * component runs covering the moment, the incidents at their version of then, the observations
 * around it and the page's changes on either side. Each part is a few index seeks, however long
 * the history: a component's run by (component, from), a version by (incident, seq).
 */

const GOOD = "outcome IN ('ok', 'not-modified')";

interface IncidentRow {
  incidentId: number;
  providerId: string;
  kind: string;
  title: string;
  status: string | null;
  impact: string | null;
  presence: string;
  resolvedAt: string | null;
  platform: string | null;
  seq: number;
  lastChangedAt: string;
}

const statements = statementsFor((c: Connection) => ({
  runs: c.prepare<[string, number, string], Omit<CoveringRun, "isGroup" | "inferred"> & { isGroup: number; inferred: number }>(
    `SELECT c.component_key AS "componentId", s.name, s.group_key AS "groupId", s.is_group AS "isGroup", s.status, s.vendor_status AS "vendorStatus",
       s.inferred, s.state_since AS "since"
     FROM components c JOIN component_states s ON s.id = (
       SELECT x.id FROM component_states x WHERE x.component_id = c.id AND x.from_at <= ? ORDER BY x.from_at DESC, x.id DESC LIMIT 1)
     WHERE c.vendor_id = ? AND (s.until_at IS NULL OR s.until_at > ?)`,
  ),
  firstGood: c.prepare<[number], { at: string }>(`SELECT observed_at AS "at" FROM captures WHERE vendor_id = ? AND ${GOOD} ORDER BY observed_at LIMIT 1`),
  startedBefore: c.prepare<[number, string], { first: string; last: string; platform: string }>(
    `SELECT observed_at AS "first", coalesce(last_observed_at, observed_at) AS "last", platform FROM captures
     WHERE vendor_id = ? AND observed_at <= ? AND ${GOOD} ORDER BY observed_at DESC LIMIT 8`,
  ),
  endedBefore: c.prepare<[number, string, string], { last: string; platform: string }>(
    `SELECT last_observed_at AS "last", platform FROM captures
     WHERE vendor_id = ? AND observations > 1 AND last_observed_at <= ? AND last_observed_at > ? AND ${GOOD} ORDER BY last_observed_at DESC LIMIT 8`,
  ),
  startedAfter: c.prepare<[number, string], { first: string; platform: string }>(
    `SELECT observed_at AS "first", platform FROM captures WHERE vendor_id = ? AND observed_at > ? AND ${GOOD} ORDER BY observed_at LIMIT 8`,
  ),
  spanning: c.prepare<[number, string, string], { last: string; platform: string }>(
    `SELECT last_observed_at AS "last", platform FROM captures
     WHERE vendor_id = ? AND observations > 1 AND last_observed_at > ? AND observed_at <= ? AND ${GOOD} ORDER BY last_observed_at LIMIT 8`,
  ),
  incidents: c.prepare<[number, string, string], IncidentRow>(
    `SELECT i.id AS "incidentId", i.provider_id AS "providerId", i.kind, i.title, i.status, i.impact, i.presence, i.resolved_at AS "resolvedAt",
       (SELECT p.platform FROM sources p WHERE p.vendor_id = i.vendor_id AND p.url = i.source) AS "platform", i.version_count AS "seq", i.last_changed_at AS "lastChangedAt"
     FROM incidents i WHERE i.vendor_id = ? AND i.first_seen_at <= ? AND (i.last_changed_at > ? OR (i.presence = 'listed' AND i.resolved_at IS NULL))`,
  ),
  versionsAt: c.prepare<[string, number, string, string], { incidentId: number; seq: number; content: Buffer }>(
    `SELECT v.incident_id AS "incidentId", v.seq, v.content FROM incidents i JOIN incident_versions v ON v.incident_id = i.id
     WHERE v.seq = (SELECT max(x.seq) FROM incident_versions x WHERE x.incident_id = i.id AND x.observed_at <= ?)
       AND i.vendor_id = ? AND i.first_seen_at <= ? AND i.last_changed_at > ?`,
  ),
  changeAtOrBefore: c.prepare<[number, string, number, string, number, string], { at: string | null }>(
    `SELECT max(t) AS "at" FROM (
       SELECT max(from_at) AS t FROM component_states WHERE vendor_id = ? AND from_at <= ?
       UNION ALL SELECT max(until_at) AS t FROM component_states WHERE vendor_id = ? AND until_at <= ?
       UNION ALL SELECT max(observed_at) AS t FROM incident_versions WHERE vendor_id = ? AND observed_at <= ?) changes`,
  ),
  changeBefore: c.prepare<[number, string, number, string, number, string], { at: string | null }>(
    `SELECT max(t) AS "at" FROM (
       SELECT max(from_at) AS t FROM component_states WHERE vendor_id = ? AND from_at < ?
       UNION ALL SELECT max(until_at) AS t FROM component_states WHERE vendor_id = ? AND until_at < ?
       UNION ALL SELECT max(observed_at) AS t FROM incident_versions WHERE vendor_id = ? AND observed_at < ?) changes`,
  ),
  changeAfter: c.prepare<[number, string, number, string, number, string], { at: string | null }>(
    `SELECT min(t) AS "at" FROM (
       SELECT min(from_at) AS t FROM component_states WHERE vendor_id = ? AND from_at > ?
       UNION ALL SELECT min(until_at) AS t FROM component_states WHERE vendor_id = ? AND until_at > ?
       UNION ALL SELECT min(observed_at) AS t FROM incident_versions WHERE vendor_id = ? AND observed_at > ?) changes`,
  ),
}));

/** What the view may rest on: a listing or grid source, not a follow-up page read for one incident. */
export type IsListing = (platform: string) => boolean;
/** Whether a format states an incident's end at all (null: the source's format is not known). */
export type StatesEnd = (platform: string | null) => boolean;

function latest(values: Iterable<string | undefined>): string | null {
  let out: string | null = null;
  for (const v of values) if (v !== undefined && (out === null || v > out)) out = v;
  return out;
}

function earliest(values: Iterable<string | undefined>): string | null {
  let out: string | null = null;
  for (const v of values) if (v !== undefined && (out === null || v < out)) out = v;
  return out;
}

/**
 * The facts of a vendor's page at `at` (ISO UTC); undefined for an unknown vendor. The caller
 * refuses a moment before `firstObservedAt`.
 */
export async function findStatusAt(db: RedlineDb, slug: string, at: string, rules: { isListing: IsListing; statesEnd: StatesEnd }): Promise<StatusFacts | undefined> {
  const vendor = await getVendorBySlug(db, slug);
  if (!vendor) return undefined;
  const st = statements(db);
  const id = vendor.id;
  const runs = (await st.runs.all(at, id, at)).map((r) => ({ ...r, status: r.status as ComponentStatus, isGroup: Boolean(r.isGroup), inferred: Boolean(r.inferred) }));

  const listing = <T extends { platform: string }>(rows: T[]) => rows.find((r) => rules.isListing(r.platform));
  const started = listing(await st.startedBefore.all(id, at));
  const startedKnown = started ? (started.last <= at ? started.last : started.first) : undefined;
  const ended = listing(await st.endedBefore.all(id, at, startedKnown ?? ""));
  const after = listing(await st.startedAfter.all(id, at));
  const spanning = listing(await st.spanning.all(id, at, at));

  const incidents: IncidentAt[] = [];
  const versions = new Map((await st.versionsAt.all(at, id, at, at)).map((v) => [v.incidentId, v]));
  for (const row of await st.incidents.all(id, at, at)) {
    const statesEnd = rules.statesEnd(row.platform);
    if (row.lastChangedAt <= at) {
      incidents.push({
        id: row.providerId, title: row.title, status: row.status, impact: row.impact as Impact | null, kind: row.kind === "maintenance" ? "maintenance" : "incident",
        seq: row.seq, open: isOpenIncident(row, row.presence), statesEnd,
      });
      continue;
    }
    const version = versions.get(row.incidentId);
    if (!version) continue;
    const text = unpackVersionText(version.content);
    let open = text.open;
    let status = text.status ?? null;
    if (open === undefined) {
      // A version written before the content kept its status: read its whole state.
      const state = await readVersionState(db, row.incidentId, version.seq);
      open = state ? isOpenIncident(state.incident, state.presence) : false;
      status = state?.incident.status ?? null;
    }
    incidents.push({
      id: row.providerId, title: text.title ?? row.title, status, impact: (text.impact ?? null) as Impact | null,
      kind: text.incidentKind === "maintenance" ? "maintenance" : "incident", seq: version.seq, open, statesEnd,
    });
  }

  const changeArgs = (t: string) => [id, t, id, t, id, t] as const;
  const currentChange = (await st.changeAtOrBefore.get(...changeArgs(at)))?.at ?? null;
  const previousChange = currentChange === null ? null : ((await st.changeBefore.get(...changeArgs(currentChange)))?.at ?? null);
  const nextChange = (await st.changeAfter.get(...changeArgs(at)))?.at ?? null;
  return {
    vendor: { slug: vendor.slug, name: vendor.name },
    at,
    firstObservedAt: (await st.firstGood.get(id))?.at ?? null,
    observedAt: latest([startedKnown, ended?.last]),
    nextObservedAt: earliest([after?.first, spanning?.last]),
    runs,
    incidents,
    currentChange,
    previousChange,
    nextChange,
  };
}
