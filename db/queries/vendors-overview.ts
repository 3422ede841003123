import type { Connection, RedlineDb } from "@/db/driver/database";
import { statementsFor } from "@/db/driver/prepared";
import { listSourceStandings, listUnresolvedGroups, listUnresolvedIncidents, type UnresolvedGroup, type UnresolvedIncidentRow } from "@/db/queries/vendor-now";
import type { VendorRow } from "@/db/settings/vendors";
import type { NowRules } from "@/lib/now-rules";
import { withoutCredentials } from "@/lib/url-credentials";
import { describeVendorNow, nowFactsOf, type SourceNowFacts, type VendorNow, type VendorNowFacts, worstImpactOf } from "@/lib/vendor-now";

export interface VendorOverview {
  slug: string;
  name: string;
  platform: string;
  /** The polled endpoint, and the vendor's human status page, as shown: without any user name or password. */
  url: string | null;
  statusPage: string | null;
  polled: boolean;
  vendorId: number;
  /** What is known of the vendor now, as of its last good capture (its unresolved incidents counted in groups). */
  now: VendorNow<UnresolvedGroup>;
  /** What `now` was worked out from, besides the incidents. */
  nowFacts: Omit<VendorNowFacts, "unresolved">;
  /** Its sources, with their last captures and what their formats can tell. */
  sources: SourceNowFacts[];
  /** Incidents open now (none while the state is unknown), and the worst impact among them. */
  openIncidents: number;
  worstOpenImpact: string | null;
  lastIncident: { providerId: string; title: string; startedAt: string | null; impact: string | null } | null;
  incidentsLast90Days: number;
  poll: { lastPollAt: string | null; lastOutcome: string | null; lastError: string | null; failures: number; nextPollAt: string | null } | null;
}

export type { NowRules };

const statements = statementsFor((c: Connection) => ({
  vendors: c.prepare<[], VendorRow & { enabledFlag: number }>(
    `SELECT id, slug, name, platform, url, status_page_url AS statusPageUrl, enabled AS enabledFlag, created_at AS createdAt,
       interval_seconds AS intervalSeconds FROM vendors ORDER BY lower(name), slug`,
  ),
  last: c.prepare<[number], { providerId: string; title: string; startedAt: string | null; impact: string | null }>(
    `SELECT provider_id AS providerId, title, started_at AS startedAt, impact FROM incidents
     WHERE vendor_id = ? AND kind = 'incident' AND started_at IS NOT NULL ORDER BY started_at DESC LIMIT 1`,
  ),
  recent: c.prepare<[number, string], { n: number }>(
    `SELECT count(*) AS n FROM incidents WHERE vendor_id = ? AND started_at >= ? AND kind = 'incident'`,
  ),
  polls: c.prepare<[], { vendorId: number; lastPollAt: string | null; lastOutcome: string | null; lastError: string | null; failures: number; nextPollAt: string | null }>(
    `SELECT vendor_id AS vendorId, last_poll_at AS lastPollAt, last_outcome AS lastOutcome, last_error AS lastError,
       consecutive_failures AS failures, next_poll_at AS nextPollAt FROM poll_state`,
  ),
}));

type VendorBase = VendorRow & { enabledFlag: number };

/**
 * Overviews of the vendors `select` keeps (and in its order): the per-vendor queries run only for
 * those, so one vendor or one page of them costs what it shows.
 */
async function overviewsOf(db: RedlineDb, now: Date, rules: NowRules, select: (vendors: VendorBase[]) => VendorBase[]): Promise<VendorOverview[]> {
  const st = statements(db);
  const chosen = select(await st.vendors.all());
  if (chosen.length === 0) return [];
  const unresolved = await listUnresolvedGroups(db);
  const polls = new Map((await st.polls.all()).map((r) => [r.vendorId, r]));
  const since = new Date(now.getTime() - 90 * 86_400_000).toISOString();
  const overviews: VendorOverview[] = [];
  for (const v of chosen) {
    const poll = polls.get(v.id);
    const sources = await listSourceStandings(db, v.id, rules.profileOf);
    const nowFacts = nowFactsOf({ ...v, enabled: v.enabledFlag === 1 }, poll, sources, rules.defaultIntervalMs);
    const polled = nowFacts.polled;
    const lastIncident = (await st.last.get(v.id)) ?? null;
    const incidentsLast90Days = (await st.recent.get(v.id, since))?.n ?? 0;
    const vendorNow = describeVendorNow({ ...nowFacts, unresolved: unresolved.get(v.id) ?? [] }, now);
    const openNow = vendorNow.state === "unknown" ? [] : vendorNow.open.filter((i) => i.kind === "incident");
    overviews.push({
      slug: v.slug,
      name: v.name,
      platform: v.platform,
      // Read to be shown: an archive may hold a URL with a password from before it was refused.
      url: v.url === null ? null : withoutCredentials(v.url),
      statusPage: v.statusPageUrl ? withoutCredentials(v.statusPageUrl) : null,
      polled,
      vendorId: v.id,
      now: vendorNow,
      nowFacts,
      sources,
      openIncidents: openNow.reduce((n, g) => n + g.count, 0),
      worstOpenImpact: worstImpactOf(openNow),
      lastIncident,
      incidentsLast90Days,
      poll: poll ? { lastPollAt: poll.lastPollAt, lastOutcome: poll.lastOutcome, lastError: poll.lastError === null ? null : withoutCredentials(poll.lastError), failures: poll.failures, nextPollAt: poll.nextPollAt } : null,
    });
  }
  return overviews;
}

/** A vendor's Now with each unresolved incident listed (its profile), from its overview. */
export async function describeVendorNowIncidents(db: RedlineDb, overview: VendorOverview, now: Date): Promise<VendorNow<UnresolvedIncidentRow>> {
  return describeVendorNow({ ...overview.nowFacts, unresolved: await listUnresolvedIncidents(db, overview.vendorId) }, now);
}

function matchesName(nameFilter: string | undefined): (v: VendorBase) => boolean {
  const needle = nameFilter?.trim().toLowerCase() ?? "";
  return (v) => needle === "" || v.name.toLowerCase().includes(needle) || v.slug.includes(needle);
}

/** Every vendor with its current state, last incident, recent count and polling health. */
export async function listVendorOverviews(db: RedlineDb, now: Date, rules: NowRules, nameFilter?: string): Promise<VendorOverview[]> {
  return overviewsOf(db, now, rules, (vendors) => vendors.filter(matchesName(nameFilter)));
}

/** One vendor's overview, or undefined. */
export async function getVendorOverview(db: RedlineDb, now: Date, rules: NowRules, slug: string): Promise<VendorOverview | undefined> {
  return (await overviewsOf(db, now, rules, (vendors) => vendors.filter((v) => v.slug === slug)))[0];
}

/** Vendors by slug after `after`, at most `limit` of them (ask for one more to know whether a page follows). */
export async function pageVendorOverviews(db: RedlineDb, now: Date, rules: NowRules, filter: { nameFilter?: string; after: string; limit: number }): Promise<VendorOverview[]> {
  const keep = matchesName(filter.nameFilter);
  return overviewsOf(db, now, rules, (vendors) =>
    vendors
      .filter((v) => v.slug > filter.after && keep(v))
      .sort((a, b) => (a.slug < b.slug ? -1 : 1))
      .slice(0, filter.limit),
  );
}
