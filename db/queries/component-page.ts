import type { Connection, RedlineDb } from "@/db/driver/database";
import { OWN_RUN_COLUMNS, RUN_COLUMNS, type RunRow, runOf } from "@/db/queries/component-history";
import { statementsFor } from "@/db/driver/prepared";
import { getVendor } from "@/db/queries/vendor-profile";
import type { StoredComponentRun } from "@/lib/components/component-history";
import { loadGridObservations } from "@/db/queries/grid-watch";
import { type ComponentPage, type ComponentPageFacts, type ComponentPeriod, componentPeriodOf, componentWindowStart, type IncidentNaming, toComponentPage } from "@/lib/components/component-page";
import type { ComponentStatus } from "@/lib/components/component-status";
import { type NowRules, readNowRules } from "@/lib/now-rules";
import { componentPageParamsSchema } from "@/lib/page-params";

/** At most this many incidents naming the component are listed for a period. */
const INCIDENT_LIMIT = 100;

const statements = statementsFor((c: Connection) => ({
  component: c.prepare<[number, string], { id: number }>(`SELECT id FROM components WHERE vendor_id = ? AND component_key = ?`),
  // A component has one run at a time: the runs reaching past a time are the last begun by then and
  // those begun after, sought on (component_id, from_at) rather than every run of its life read.
  runsSince: c.prepare<{ component: number; since: string }, Omit<RunRow, "componentId">>(
    `SELECT ${OWN_RUN_COLUMNS} FROM component_states s
     WHERE s.component_id = @component
       AND s.from_at >= coalesce((SELECT max(from_at) FROM component_states WHERE component_id = @component AND from_at <= @since), '')
       AND (s.until_at IS NULL OR s.until_at > @since)
     ORDER BY s.from_at, s.id`,
  ),
  lastRun: c.prepare<[number], RunRow>(
    `SELECT ${RUN_COLUMNS} FROM component_states s JOIN components c ON c.id = s.component_id WHERE s.component_id = ? ORDER BY s.from_at DESC, s.id DESC LIMIT 1`,
  ),
  extent: c.prepare<[number], { first: string | null; runs: number }>(`SELECT min(from_at) AS "first", count(*) AS "runs" FROM component_states WHERE component_id = ?`),
  groupName: c.prepare<[number, string], { name: string }>(
    `SELECT s.name FROM components c JOIN component_states s ON s.component_id = c.id WHERE c.vendor_id = ? AND c.component_key = ? ORDER BY s.from_at DESC, s.id DESC LIMIT 1`,
  ),
  members: c.prepare<[number, string], { key: string; name: string; status: string; inferred: number }>(
    `SELECT c.component_key AS "key", s.name, s.status, s.inferred FROM component_states s JOIN components c ON c.id = s.component_id
     WHERE s.vendor_id = ? AND s.until_at IS NULL AND s.group_key = ?`,
  ),
  pollOutcome: c.prepare<[number], { outcome: string | null }>(`SELECT last_outcome AS "outcome" FROM poll_state WHERE vendor_id = ?`),
  incidents: c.prepare<[number, string, string, string, number], IncidentNaming>(
    `SELECT i.provider_id AS "providerId", i.title, i.kind, i.impact, i.status, i.started_at AS "startedAt", i.resolved_at AS "resolvedAt",
       i.first_seen_at AS "firstSeenAt", i.presence
     FROM incident_components ic JOIN incidents i ON i.id = ic.incident_id
     WHERE ic.vendor_id = ? AND ic.component_id = ? AND coalesce(i.started_at, i.first_seen_at) >= ? AND coalesce(i.started_at, i.first_seen_at) < ?
     ORDER BY coalesce(i.started_at, i.first_seen_at) DESC, i.id DESC LIMIT ?`,
  ),
}));

/**
 * What a component's page shows, for the period asked: undefined for an unknown vendor or a
 * component the vendor's page never listed.
 */
export async function findComponentPage(db: RedlineDb, slug: string, key: string, period: ComponentPeriod, now: Date, rules: NowRules): Promise<ComponentPageFacts | undefined> {
  const vendor = await getVendor(db, slug);
  if (!vendor) return undefined;
  const st = statements(db);
  const component = await st.component.get(vendor.id, key);
  if (!component) return undefined;
  const intervalMs = vendor.intervalSeconds ? vendor.intervalSeconds * 1000 : rules.defaultIntervalMs;
  const windowStart = componentWindowStart(period, now, intervalMs);
  const runs: StoredComponentRun[] = (await st.runsSince.all({ component: component.id, since: windowStart })).map((row) => runOf({ ...row, componentId: key }));
  // The runs reaching past the window's start end with its last; a component removed before it needs a look back.
  const lastRow = runs.length > 0 ? undefined : await st.lastRun.get(component.id);
  const last = runs.at(-1) ?? (lastRow ? runOf(lastRow) : null);
  const extent = await st.extent.get(component.id);
  const groupName = last?.groupId ? ((await st.groupName.get(vendor.id, last.groupId))?.name ?? last.groupId) : null;
  const members = last?.isGroup
    ? (await st.members.all(vendor.id, key)).filter((m) => m.key !== key).map((m) => ({ key: m.key, name: m.name, status: m.status as ComponentStatus, inferred: Boolean(m.inferred) }))
        .sort((a, b) => a.name.localeCompare(b.name) || (a.key < b.key ? -1 : 1))
    : [];
  const observations = await loadGridObservations(db, vendor.id, windowStart, { profileOf: rules.profileOf, intervalMs });
  const listed = await st.incidents.all(vendor.id, key, period.from, period.to, INCIDENT_LIMIT + 1);
  const outcome = (await st.pollOutcome.get(vendor.id))?.outcome ?? null;
  return {
    vendor: { slug: vendor.slug, name: vendor.name, createdAt: vendor.createdAt, polled: vendor.enabled && vendor.url !== null, pollFailing: outcome !== null && outcome !== "ok", intervalMs },
    component: { key, firstListedAt: extent?.first ?? null, runCount: extent?.runs ?? 0 },
    runs,
    last,
    groupName,
    members,
    ...observations,
    incidents: listed.slice(0, INCIDENT_LIMIT),
    moreIncidents: listed.length > INCIDENT_LIMIT,
  };
}

/**
 * A component's page as the query string asks for it (`days`, or `since` and `until`; the last of a
 * repeated name), shaped for `now`: undefined for parameters the page does not take, an unknown
 * vendor or a component its page never listed. The Next page and the web server's renderer both read it.
 */
export async function resolveComponentPage(db: RedlineDb, slug: string, key: string, query: string, now: Date): Promise<ComponentPage | undefined> {
  const asked = componentPageParamsSchema.safeParse(Object.fromEntries(new URLSearchParams(query)));
  if (!asked.success) return undefined;
  const period = componentPeriodOf(asked.data, now);
  const facts = await findComponentPage(db, slug, key, period, now, readNowRules());
  return facts ? toComponentPage(facts, period, now) : undefined;
}

/** Whether the vendor's page ever listed a component by this key: a component page's address names something. */
export async function componentExists(db: RedlineDb, vendorId: number, key: string): Promise<boolean> {
  return (await statements(db).component.get(vendorId, key)) !== undefined;
}
