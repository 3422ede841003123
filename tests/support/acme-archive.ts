import type { RedlineDb } from "@/db/client";
import { ensureVendor, type VendorRow } from "@/db/settings/vendors";
import type { Platform } from "@/scrapers/platforms/platform";
import { ingestSnapshot } from "@/scrapers/ingest/ingest-snapshot";
import { ACME_LIFECYCLE } from "@/tests/fixtures/scenarios/acme-lifecycle";
import { makeTestPlatform, snapshotBody } from "@/tests/support/test-platform";

/** "Acme Cloud" with the whole hand-written lifecycle archived through the real write path. */
export async function archiveAcmeLifecycle(db: RedlineDb, platform: Platform = makeTestPlatform({ kind: "recent", limit: 25 })): Promise<VendorRow> {
  const acme = await ensureVendor(db, { slug: "acme", name: "Acme Cloud", platform: platform.name });
  for (const step of ACME_LIFECYCLE) {
    await ingestSnapshot(db, { vendor: acme, platform, source: "incidents.json", observedAt: step.at, body: snapshotBody(step.incidents) });
  }
  return acme;
}
