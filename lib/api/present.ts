/**
 * A version and a quiet degradation as the API gives them and as messages to subscribers carry
 * them: one builder each, so the two cannot drift.
 */
import type { z } from "zod";
import type { ApiLinks } from "@/lib/api/links";
import type { quietDegradationSchema, versionDetailSchema } from "@/lib/api/schemas";
import { groupsOf, type QuietDegradationView } from "@/lib/components/quiet-degradation";
import { msBetween } from "@/lib/format";
import { incidentKey } from "@/lib/incident-key";

/** What a stored version says of itself; the incident it belongs to and the links are added here. */
export type VersionFields = Omit<z.infer<typeof versionDetailSchema>, "incident" | "links">;

export function incidentRef(vendor: string, providerId: string, title: string) {
  return { vendor, id: providerId, key: incidentKey(providerId), title };
}

/** One version as the API's version endpoint gives it, and as webhooks deliver it. */
export function presentVersion(links: ApiLinks, slug: string, providerId: string, title: string, version: VersionFields): z.infer<typeof versionDetailSchema> {
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
