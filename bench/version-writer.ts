/**
 * The web benchmark's outage elsewhere: records a new version of one incident of its own vendor
 * ("bench-outage") every `intervalMs`, through the poller's write path, and prints "recorded <n>"
 * after each. On SIGTERM it removes the vendor and what it recorded, leaving the seed as it was.
 * Run as `node --import tsx bench/version-writer.ts <db file or postgres:// URL> <intervalMs>`.
 */
import { closeStore, openStore } from "@/db/client";
import { ensureVendor, getVendorBySlug, removeVendor } from "@/db/settings/vendors";
import { sha256Hex } from "@/lib/canonicalize";
import { wholeSnapshot } from "@/lib/derive/observation";
import { recordParsed } from "@/scrapers/ingest/ingest-snapshot";
import { getPlatform } from "@/scrapers/platforms";
import { makeIncident, makeUpdate } from "@/tests/support/incidents";

const SLUG = "bench-outage";
const PLATFORM = "statuspage-incidents";

async function run(location: string, intervalMs: number): Promise<void> {
  const db = await openStore(location);
  const platform = getPlatform(PLATFORM);
  if (!platform) throw new Error(`bench: no platform ${PLATFORM}`);
  // A run stopped before it could clean up left its vendor behind.
  if ((await getVendorBySlug(db, SLUG))) await removeVendor(db, SLUG, true);
  const vendor = await ensureVendor(db, { slug: SLUG, name: "Bench Outage", platform: PLATFORM });
  const startedAt = new Date().toISOString();
  let recorded = 0;
  const record = async () => {
    const n = recorded + 1;
    const incident = makeIncident({
      vendor: SLUG, id: "outage", title: `Elevated errors in ${n} regions`, startedAt, url: `https://status.${SLUG}.example/incidents/outage`,
      updates: [makeUpdate({ id: "u1", createdAt: startedAt, body: `Errors now affect ${n} regions; we are rerouting traffic.` })],
    });
    const result = await recordParsed(
      db,
      { vendor, platform, source: `https://status.${SLUG}.example/api/v2/incidents.json`, observedAt: new Date().toISOString(), hash: sha256Hex(`${SLUG}/${n}`), body: null },
      { outcome: "ok", error: null, snapshot: wholeSnapshot([incident]) },
    );
    recorded = n;
    console.log(`recorded ${n} (${result.versionsAdded} version${result.versionsAdded === 1 ? "" : "s"})`);
  };
  await record();
  const timer = setInterval(() => void record(), intervalMs);
  process.once("SIGTERM", () => {
    clearInterval(timer);
    void removeVendor(db, SLUG, true)
      .then(() => closeStore(db))
      .then(() => process.exit(0));
  });
}

void run(process.argv[2] ?? "", Number(process.argv[3] ?? 1_000));
