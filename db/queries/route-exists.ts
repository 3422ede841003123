import type { RedlineDb } from "@/db/client";
import { parseSeq, resolveIncidentRoute } from "@/db/queries/incident-route";
import { getVersionDetail } from "@/db/queries/incident-page";
import { getVendor } from "@/db/queries/vendor-profile";

const VENDOR_PATH = /^\/vendors\/([^/]+)(?:\/(?:changes|incidents\/([^/]+)(?:\/(?:compare|export\.md|export\.json|versions\/([^/]+)(?:\/export\.(?:md|json))?))?))?\/?$/;

/**
 * Whether the vendor, incident and version a path names exist. Paths this does not recognise
 * are left to the router (true); only archive addresses that name something missing are false.
 */
export function archivePathExists(db: RedlineDb, pathname: string): boolean {
  const m = VENDOR_PATH.exec(pathname);
  if (!m) return true;
  const [, rawSlug = "", key, seq] = m;
  const slug = decodeURIComponent(rawSlug);
  if (key === undefined) return getVendor(db, slug) !== undefined;
  const route = resolveIncidentRoute(db, slug, decodeURIComponent(key));
  if (!route) return false;
  if (seq === undefined) return true;
  const n = parseSeq(seq);
  return n !== null && getVersionDetail(db, route.incident.id, n) !== undefined;
}
