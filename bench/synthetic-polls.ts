import type { RedlineDb } from "@/db/client";
import type { VendorRow } from "@/db/settings/vendors";
import { sha256Hex } from "@/lib/canonicalize";
import { wholeSnapshot } from "@/lib/derive/observation";
import type { Incident } from "@/lib/incident";
import { type IncidentScript, scriptIncident, stateAt, type SyntheticVendor } from "@/bench/synthetic-incidents";
import type { Random } from "@/bench/synthetic-text";
import { recordParsed } from "@/scrapers/ingest/ingest-snapshot";
import type { Platform } from "@/scrapers/platforms/platform";

/** New incidents per poll, and for how many polls the feed lists each (the feed shows ~48). */
const BATCH = 8;
const WINDOW = 6;

/**
 * Record a synthetic vendor's incidents through the write path, as polls of a Statuspage
 * incidents.json spread over `spanMs` up to `endMs` would: 8 new incidents per poll, each listed
 * for 6 polls while it is updated, resolved and edited, then aged out. Returns captures and versions.
 */
export async function recordSyntheticPolls(
  db: RedlineDb,
  random: Random,
  vendor: VendorRow,
  v: SyntheticVendor,
  platform: Platform,
  window: { endMs: number; spanMs: number },
): Promise<{ captures: number; versions: number }> {
  const source = `https://status.${v.slug}.example/api/v2/incidents.json`;
  const batches = Math.ceil(v.incidents / BATCH);
  // The newest few batches are still listed (some still open) when the archive ends.
  const polls = batches + 2;
  const interval = window.spanMs / polls;
  const pollAt = (c: number) => window.endMs - (polls - 1 - c) * interval;
  const scripts: IncidentScript[][] = [];
  for (let b = 0; b < batches; b += 1) {
    const size = Math.min(BATCH, v.incidents - b * BATCH);
    scripts.push(Array.from({ length: size }, () => scriptIncident({ random, vendor: v, startMs: Math.round(pollAt(b) - interval * (0.05 + 0.9 * random())), window: WINDOW }, v.slug)));
  }
  let versions = 0;
  for (let c = 0; c < polls; c += 1) {
    const listed: Incident[] = [];
    for (let b = Math.max(0, c - WINDOW + 1); b <= Math.min(c, batches - 1); b += 1) {
      for (const script of scripts[b] ?? []) {
        const state = stateAt(script, c - b);
        if (state) listed.push(state);
      }
    }
    const result = await recordParsed(
      db,
      { vendor, platform, source, observedAt: new Date(pollAt(c)).toISOString(), hash: sha256Hex(`${v.slug}/${c}`), body: null },
      { outcome: "ok", error: null, snapshot: wholeSnapshot(listed) },
    );
    versions += result.versionsAdded;
  }
  return { captures: polls, versions };
}
