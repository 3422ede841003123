/**
 * The path segment an incident is addressed by. Most provider ids are URL-safe and are used as
 * they are; any other (a feed item's URL, "service/number") is hex-encoded behind a "~", so every
 * id has one stable, reversible segment.
 */
const SAFE = /^[A-Za-z0-9._-][A-Za-z0-9._~-]*$/;

export function incidentKey(providerId: string): string {
  return SAFE.test(providerId) ? providerId : `~${Buffer.from(providerId, "utf8").toString("hex")}`;
}

/** The provider id a key stands for, or null when the key is not one incidentKey makes. */
export function providerIdFromKey(key: string): string | null {
  if (!key.startsWith("~")) return SAFE.test(key) ? key : null;
  const hex = key.slice(1);
  if (hex.length === 0 || hex.length % 2 !== 0 || !/^[0-9a-f]+$/.test(hex)) return null;
  const id = Buffer.from(hex, "hex").toString("utf8");
  return incidentKey(id) === key ? id : null;
}

/** Paths of the archive's pages, in one place so links and routes agree. */
export const paths = {
  vendor: (slug: string) => `/vendors/${encodeURIComponent(slug)}`,
  vendorChanges: (slug: string) => `/vendors/${encodeURIComponent(slug)}/changes`,
  /** A component's page, by the vendor's id of it. */
  component: (slug: string, componentKey: string) => `/vendors/${encodeURIComponent(slug)}/components/${encodeURIComponent(componentKey)}`,
  /** The vendor's status page as it was at a moment (an ISO time; a colon needs no escape in a query). */
  vendorStatusAt: (slug: string, at: string) => `/vendors/${encodeURIComponent(slug)}/status?at=${encodeURIComponent(at).replaceAll("%3A", ":")}`,
  /** The home page's quiet degradations, of one vendor or all. */
  quietDegradations: (slug?: string) => (slug ? `/?show=degradations&vendor=${encodeURIComponent(slug)}` : "/?show=degradations"),
  incident: (slug: string, providerId: string) => `/vendors/${encodeURIComponent(slug)}/incidents/${incidentKey(providerId)}`,
  version: (slug: string, providerId: string, seq: number) => `${paths.incident(slug, providerId)}/versions/${seq}`,
  compare: (slug: string, providerId: string, from: number, to: number) => `${paths.incident(slug, providerId)}/compare?from=${from}&to=${to}`,
  incidentExport: (slug: string, providerId: string, format: "md" | "json") => `${paths.incident(slug, providerId)}/export.${format}`,
  versionExport: (slug: string, providerId: string, seq: number, format: "md" | "json") => `${paths.version(slug, providerId, seq)}/export.${format}`,
  allFeed: (format: string) => `/feed.${format}`,
  kindFeed: (kind: string, format: string) => `/kinds/${encodeURIComponent(kind)}/feed.${format}`,
  vendorFeed: (slug: string, format: string) => `${paths.vendor(slug)}/feed.${format}`,
  vendorKindFeed: (slug: string, kind: string, format: string) => `${paths.vendor(slug)}/kinds/${encodeURIComponent(kind)}/feed.${format}`,
  incidentFeed: (slug: string, providerId: string, format: string) => `${paths.incident(slug, providerId)}/feed.${format}`,
  allMaintenanceCalendar: () => "/maintenance.ics",
  vendorMaintenanceCalendar: (slug: string) => `${paths.vendor(slug)}/maintenance.ics`,
  watchlists: () => "/watch",
  watchlist: (name: string) => `/watch/${encodeURIComponent(name)}`,
  watchlistFeed: (name: string, format: string) => `${paths.watchlist(name)}/feed.${format}`,
  watchlistMaintenanceCalendar: (name: string) => `${paths.watchlist(name)}/maintenance.ics`,
};

/** A vendor-given URL as a link target, only when it is http(s): nothing else may be clicked, and no credential is shown. */
export function safeHttpUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return null;
    parsed.username = "";
    parsed.password = "";
    return parsed.toString();
  } catch {
    return null;
  }
}
