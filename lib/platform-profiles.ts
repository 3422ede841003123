/**
 * What each platform's snapshots list and which fields they state, how precisely: data, declared
 * once here so pages (the Now rules) read it without the parsers, and each platform in
 * scrapers/platforms takes its profile from this table by its name.
 */
import { EXACT_FIELDS, EXACT_UPDATES, exactProfile, type SourceProfile, statingOnly } from "@/lib/derive/source-profile";

/** Statuspage's history feeds print "Update" for an update that kept the previous status; it says nothing of the incident. */
export const STATUSPAGE_FEED_KEPT_STATUS = "update";

/**
 * What the history feeds state: titles, links and every update exactly; update times to the
 * minute and texts rendered from HTML; the end to the minute (the closing update's time); the
 * start and whether it is a maintenance only worked out from the updates; no impact, components
 * or schedule.
 */
const STATUSPAGE_FEED: SourceProfile = {
  presence: { kind: "recent", limit: 25 },
  createsIncidents: true,
  fields: { title: "exact", url: "exact", status: "exact", kind: "inferred", impact: "inferred", startedAt: "inferred", resolvedAt: "minute", postmortem: "rendered" },
  updates: { list: "full", time: "minute", text: "rendered", createdAt: false, keptStatus: STATUSPAGE_FEED_KEPT_STATUS },
};

const AWS_STATED = statingOnly(
  { kind: "active" },
  ["kind", "title", "status", "startedAt", "scheduledFor", "scheduledUntil", "components", "postmortem"],
  { ...EXACT_UPDATES, time: "minute", text: "rendered" },
);

const CACHET_STATED = statingOnly(
  { kind: "recent", limit: null },
  ["kind", "title", "status", "url", "startedAt", "resolvedAt", "scheduledFor", "scheduledUntil", "components"],
  EXACT_UPDATES,
);
/** Cachet states no impact, and tells a maintenance only by its "scheduled" status. */
const CACHET: SourceProfile = { ...CACHET_STATED, fields: { ...CACHET_STATED.fields, kind: "inferred" } };

/**
 * Everything exactly, but the end: Slack publishes none, and an incident over by its status is
 * taken to have ended at its newest note. Stated the same way while it is open, so that the
 * inferred end can replace the open incident's null.
 */
const slack = (presence: SourceProfile["presence"]): SourceProfile => exactProfile(presence, { fields: { ...EXACT_FIELDS, resolvedAt: "inferred" } });

/** The grid alone: it lists no incident, so its snapshots judge none absent. */
const GRID_ONLY: SourceProfile = { presence: { kind: "single" }, createsIncidents: false, fields: {}, updates: null, components: "stated" };

export const PLATFORM_PROFILES = {
  "statuspage-summary": exactProfile({ kind: "active" }, { components: "stated" }),
  "statuspage-components": GRID_ONLY,
  "statuspage-incidents": exactProfile({ kind: "recent", limit: 50 }),
  "statuspage-incident": exactProfile({ kind: "single" }),
  // The postmortem is recovered from the page's HTML as Markdown, its time often printed to the minute.
  "statuspage-incident-page": { presence: { kind: "single" }, createsIncidents: false, fields: { postmortem: "rendered" }, updates: null },
  "statuspage-atom": STATUSPAGE_FEED,
  "statuspage-rss": STATUSPAGE_FEED,
  "statuspage-atom-fallback": STATUSPAGE_FEED,
  // The feed keeps about a year of incidents by their end time, not a fixed count.
  gcp: exactProfile({ kind: "recent", limit: null, by: "end" }, { components: "inferred" }),
  /**
   * No impact and no end (see readAwsEvent); the link is the dashboard's, standing in for a page no
   * event has; update times are printed to the minute and texts rendered from HTML.
   */
  "aws-legacy": { ...AWS_STATED, fields: { ...AWS_STATED.fields, url: "inferred" }, components: "inferred" },
  slack: { ...slack({ kind: "active" }), components: "inferred" },
  "slack-history": { ...slack({ kind: "recent", limit: null }), components: "inferred" },
  // A plain feed says nothing of status, impact, components or resolution; another source may.
  // Its one update is the item's whole text, rendered from HTML, at the item's one date.
  rss: statingOnly({ kind: "recent", limit: null }, ["title", "url", "startedAt"], { list: "full", time: "exact", text: "rendered", createdAt: false }),
  "azure-rss": { ...statingOnly({ kind: "active" }, ["title", "status", "url", "components"], { list: "partial", time: "exact", text: "rendered", createdAt: false }), components: "inferred" },
  "instatus-components": GRID_ONLY,
  "instatus-summary": statingOnly({ kind: "active" }, ["kind", "title", "status", "impact", "url", "startedAt", "scheduledFor", "scheduledUntil"]),
  // It stands in for incidents.json, whose components are keyed by id and whose links come from the page URL.
  "incidentio-feed": statingOnly({ kind: "recent", limit: null }, ["title", "status"], { list: "partial", time: "exact", text: "rendered", createdAt: false }),
  // Its grid lists only the components its events affect (see parseIncidentioWidget).
  "incidentio-widget": {
    ...statingOnly(
      { kind: "active" },
      ["kind", "title", "status", "impact", "url", "components", "scheduledFor", "scheduledUntil"],
      { list: "partial", time: "exact", text: "exact", createdAt: false },
    ),
    components: "stated",
    affectedComponentsOnly: true,
  },
  "incidentio-incidents": exactProfile({ kind: "recent", limit: null }),
  "betterstack-index": exactProfile({ kind: "recent", limit: null }, { components: "stated" }),
  // The feed holds the most recent updates, so a report's first ones leave it first; its statuses
  // ("[Investigating]") and update ids differ in kind from index.json's, which it stands in for.
  "betterstack-rss": statingOnly({ kind: "recent", limit: null }, ["title"]),
  "cachet-v2": CACHET,
  "cachet-v3": CACHET,
  "cachet-v2-components": GRID_ONLY,
  "cachet-v2-groups": GRID_ONLY,
  "cachet-v3-components": GRID_ONLY,
} satisfies Record<string, SourceProfile>;

export type PlatformName = keyof typeof PLATFORM_PROFILES;

/** The profile of the platform named `name`; null for a name Redline does not know. */
export function platformProfileOf(name: string): SourceProfile | null {
  return Object.hasOwn(PLATFORM_PROFILES, name) ? PLATFORM_PROFILES[name as PlatformName] : null;
}
