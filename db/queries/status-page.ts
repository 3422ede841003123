import type { RedlineDb } from "@/db/driver/database";
import { getPollState } from "@/db/operations/poll-state";
import { findStatusAt } from "@/db/queries/status-at";
import { listSourceStandings } from "@/db/queries/vendor-now";
import { getVendorBySlug } from "@/db/settings/vendors";
import { refuseBeforeArchive, type StatusPage, toStatusNowPage, toStatusPage } from "@/lib/components/status-view";
import { type NowRules, statusRules } from "@/lib/now-rules";
import { nowFactsOf } from "@/lib/vendor-now";

/** The page as it was, or why that moment cannot be shown (before the vendor's first capture). */
export type StatusAnswer = { page: StatusPage } | { refused: string; firstObservedAt: string | null };

/**
 * The page of `slug` as it was at `at`, or as it is `now` when `at` is null (with the Now rules:
 * unknown once the last good capture is a few poll intervals old); undefined for an unknown
 * vendor. What `redline status`, the API and the web page all answer with.
 */
export async function findStatusPage(db: RedlineDb, slug: string, at: string | null, rules: NowRules, now: Date): Promise<StatusAnswer | undefined> {
  const vendor = await getVendorBySlug(db, slug);
  if (!vendor) return undefined;
  const facts = await findStatusAt(db, slug, at ?? now.toISOString(), statusRules(rules.profileOf));
  if (!facts) return undefined;
  if (at !== null) {
    const refused = refuseBeforeArchive(facts);
    return refused === null ? { page: toStatusPage(facts) } : { refused, firstObservedAt: facts.firstObservedAt };
  }
  const sources = await listSourceStandings(db, vendor.id, rules.profileOf);
  const nowFacts = nowFactsOf(vendor, await getPollState(db, vendor.id), sources, rules.defaultIntervalMs);
  return { page: toStatusNowPage(facts, nowFacts, now) };
}
