import type { Connection, RedlineDb } from "@/db/driver/database";
import { parseSeq } from "@/db/queries/incident-route";
import { statementsFor } from "@/db/driver/prepared";
import { providerIdFromKey } from "@/lib/incident-key";

const VENDOR_PATH = /^\/vendors\/([^/]+)(?:\/(?:changes|status|incidents\/([^/]+)(?:\/(?:compare|export\.md|export\.json|versions\/([^/]+)(?:\/export\.(?:md|json))?))?))?\/?$/;
const COMPONENT_PATH = /^\/vendors\/([^/]+)\/components\/([^/]+)\/?$/;

// Row lookups on the identity indexes: the proxy asks before every archive page, so it must not
// read the incident's record or rebuild a version the page itself reads next.
const statements = statementsFor((c: Connection) => ({
  vendor: c.prepare<[string], { n: number }>("SELECT 1 AS n FROM vendors WHERE slug = ?"),
  component: c.prepare<[string, string], { n: number }>(
    `SELECT 1 AS "n" FROM vendors d JOIN components c ON c.vendor_id = d.id AND c.component_key = ? WHERE d.slug = ?`,
  ),
  incident: c.prepare<[string, string], { n: number }>(
    `SELECT 1 AS n FROM vendors d JOIN incidents i ON i.vendor_id = d.id AND i.provider_id = ?
       JOIN incident_versions v ON v.incident_id = i.id AND v.seq = i.version_count WHERE d.slug = ?`,
  ),
  version: c.prepare<[string, number, string], { n: number }>(
    `SELECT 1 AS n FROM vendors d JOIN incidents i ON i.vendor_id = d.id AND i.provider_id = ?
       JOIN incident_versions latest ON latest.incident_id = i.id AND latest.seq = i.version_count
       JOIN incident_versions v ON v.incident_id = i.id AND v.seq = ? WHERE d.slug = ?`,
  ),
}));

/**
 * Whether the vendor, incident, version or component a path names exist (an incident, with its
 * latest version; a component, when the vendor's page ever listed it). Paths this does not recognise are left to the router (true); only archive addresses
 * that name something missing are false.
 */
export async function archivePathExists(db: RedlineDb, pathname: string): Promise<boolean> {
  const component = COMPONENT_PATH.exec(pathname);
  if (component) {
    const [slug, key] = [decodedSegment(component[1] ?? ""), decodedSegment(component[2] ?? "")];
    return slug !== null && key !== null && (await statements(db).component.get(key, slug)) !== undefined;
  }
  const m = VENDOR_PATH.exec(pathname);
  if (!m) return true;
  const [, rawSlug = "", key, seq] = m;
  const slug = decodeURIComponent(rawSlug);
  const st = statements(db);
  if (key === undefined) return (await st.vendor.get(slug)) !== undefined;
  const providerId = providerIdFromKey(decodeURIComponent(key));
  if (providerId === null) return false;
  if (seq === undefined) return (await st.incident.get(providerId, slug)) !== undefined;
  const n = parseSeq(seq);
  return n !== null && (await st.version.get(providerId, n, slug)) !== undefined;
}

function decodedSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}
