import type { z } from "zod";
import type { IncidentSummaryRow } from "@/db/queries/incident-list";
import type { VersionDetail } from "@/db/queries/incident-page";
import type { VendorOverview } from "@/db/queries/vendors-overview";
import type { incidentSummarySchema, quietDegradationSchema, vendorSchema, versionDetailSchema } from "@/lib/api/schemas";
import { groupsOf, type QuietDegradationView } from "@/lib/components/quiet-degradation";
import { msBetween } from "@/lib/format";
import { incidentKey, paths } from "@/lib/incident-key";

/** Cursors are opaque to clients: the list's own position, base64url-encoded. */
export function encodeApiCursor(position: string): string {
  return Buffer.from(position, "utf8").toString("base64url");
}

export function decodeApiCursor(cursor: string): string | null {
  const position = Buffer.from(cursor, "base64url").toString("utf8");
  return encodeApiCursor(position) === cursor ? position : null;
}

/** Absolute links to the API and to the pages, from one origin. */
export function apiLinks(origin: string) {
  const api = (path: string) => `${origin}/api/v1${path}`;
  const page = (path: string) => `${origin}${path}`;
  const feeds = (feedPath: (f: string) => string) => ({ atom: page(feedPath("atom")), rss: page(feedPath("rss")), json: page(feedPath("json")) });
  const links = {
    vendor: (slug: string) => ({
      self: api(paths.vendor(slug)),
      html: page(paths.vendor(slug)),
      incidents: api(`/incidents?vendor=${encodeURIComponent(slug)}`),
      changes: api(`/changes?vendor=${encodeURIComponent(slug)}`),
      quietDegradations: api(`${paths.vendor(slug)}/quiet-degradations`),
      feeds: feeds((f) => paths.vendorFeed(slug, f)),
    }),
    quietDegradation: (slug: string, from: string) => ({ html: page(paths.vendorStatusAt(slug, from)), vendor: api(paths.vendor(slug)) }),
    component: (slug: string, key: string) => ({ html: page(paths.component(slug, key)) }),
    incident: (slug: string, providerId: string) => ({ self: api(paths.incident(slug, providerId)), html: page(paths.incident(slug, providerId)) }),
    incidentFull: (slug: string, providerId: string) => ({
      ...links.incident(slug, providerId),
      markdown: api(paths.incidentExport(slug, providerId, "md")),
      json: api(paths.incidentExport(slug, providerId, "json")),
      feeds: feeds((f) => paths.incidentFeed(slug, providerId, f)),
    }),
    version: (slug: string, providerId: string, seq: number) => ({ self: api(paths.version(slug, providerId, seq)), html: page(paths.version(slug, providerId, seq)) }),
    versionFull: (slug: string, providerId: string, seq: number) => ({
      ...links.version(slug, providerId, seq),
      incident: api(paths.incident(slug, providerId)),
      markdown: api(paths.versionExport(slug, providerId, seq, "md")),
      json: api(paths.versionExport(slug, providerId, seq, "json")),
    }),
    diff: (slug: string, providerId: string, from: number, to: number) => ({
      self: api(`${paths.incident(slug, providerId)}/diff?from=${from}&to=${to}`),
      html: page(paths.compare(slug, providerId, from, to)),
    }),
  };
  return links;
}
export type ApiLinks = ReturnType<typeof apiLinks>;

export function incidentRef(vendor: string, providerId: string, title: string) {
  return { vendor, id: providerId, key: incidentKey(providerId), title };
}

export function toVendor(links: ApiLinks, v: VendorOverview): z.infer<typeof vendorSchema> {
  return {
    slug: v.slug,
    name: v.name,
    platform: v.platform,
    url: v.url,
    statusPage: v.statusPage,
    polled: v.polled,
    openIncidents: v.openIncidents,
    now: { state: v.now.state, asOf: v.now.asOf, unknownSince: v.now.unknownSince, reason: v.now.reason },
    incidentsLast90Days: v.incidentsLast90Days,
    lastIncident: v.lastIncident ? { id: v.lastIncident.providerId, title: v.lastIncident.title, startedAt: v.lastIncident.startedAt, impact: v.lastIncident.impact } : null,
    poll: v.poll
      ? { lastPollAt: v.poll.lastPollAt, lastOutcome: v.poll.lastOutcome, lastError: v.poll.lastError, consecutiveFailures: v.poll.failures, nextPollAt: v.poll.nextPollAt }
      : null,
    links: links.vendor(v.slug),
  };
}

export function toIncidentSummary(links: ApiLinks, r: Omit<IncidentSummaryRow, "id" | "timeline">): z.infer<typeof incidentSummarySchema> {
  return {
    vendor: r.vendorSlug,
    id: r.providerId,
    key: incidentKey(r.providerId),
    kind: r.kind,
    title: r.title,
    status: r.status,
    impact: r.impact,
    startedAt: r.startedAt,
    resolvedAt: r.resolvedAt,
    presence: r.presence,
    firstSeenAt: r.firstSeenAt,
    lastChangedAt: r.lastChangedAt,
    versionCount: r.versionCount,
    links: links.incident(r.vendorSlug, r.providerId),
  };
}

/** One version as the API's version endpoint gives it, and as webhooks deliver it: one builder, so the two cannot drift. */
export function presentVersion(links: ApiLinks, slug: string, providerId: string, title: string, version: VersionDetail): z.infer<typeof versionDetailSchema> {
  return {
    incident: incidentRef(slug, providerId, title),
    seq: version.seq,
    observedAt: version.observedAt,
    hash: version.hash,
    kinds: version.kinds,
    summary: version.summary,
    headline: version.headline,
    changes: version.changes,
    snapshot: version.snapshot,
    links: links.versionFull(slug, providerId, version.seq),
  };
}

/** One quiet degradation as the API lists it and webhooks deliver it. */
export function presentQuietDegradation(links: ApiLinks, q: QuietDegradationView): z.infer<typeof quietDegradationSchema> {
  const slug = q.vendor.slug;
  return {
    vendor: slug,
    vendorName: q.vendor.name,
    from: q.from,
    until: q.until,
    durationSeconds: q.until === null ? null : Math.round(msBetween(q.from, q.until) / 1000),
    components: q.components.map((c) => ({ id: c.id, name: c.name, group: c.group, links: links.component(slug, c.id) })),
    groups: groupsOf(q),
    links: links.quietDegradation(slug, q.from),
  };
}
