/** Absolute links to the API and to the pages, from one origin: the API's answers and the messages sent to subscribers carry the same. */
import { paths } from "@/lib/incident-key";

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
