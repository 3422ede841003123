import type { z } from "zod";
import type { IncidentSummaryRow } from "@/db/queries/incident-list";
import type { VendorOverview } from "@/db/queries/vendors-overview";
import type { ApiLinks } from "@/lib/api/links";
import type { incidentSummarySchema, vendorSchema } from "@/lib/api/schemas";
import { incidentKey } from "@/lib/incident-key";

/** Cursors are opaque to clients: the list's own position, base64url-encoded. */
export function encodeApiCursor(position: string): string {
  return Buffer.from(position, "utf8").toString("base64url");
}

export function decodeApiCursor(cursor: string): string | null {
  const position = Buffer.from(cursor, "base64url").toString("utf8");
  return encodeApiCursor(position) === cursor ? position : null;
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
