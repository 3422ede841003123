import { readMessageChanges } from "@/db/notifications/delivery";
import type { Incident } from "@/lib/incident";
import { planWaitingMessages } from "@/db/notifications/delivery";
import { fanOutVersions } from "@/db/notifications/outbox";
import { addSubscription } from "@/db/notifications/subscriptions";
import { ensureVendor } from "@/db/settings/vendors";
import { subscriptionFilterSchema } from "@/lib/notify/subscription-filter";
import type { NotifiedChange } from "@/lib/notify/outbound-message";
import { ingestSnapshot } from "@/scrapers/ingest/ingest-snapshot";
import { presentCarried } from "@/notify/deliver";
import { apiLinks } from "@/lib/api/links";
import { freshDatabase, queryRows } from "@/tests/support/database";
import { makeTestPlatform, snapshotBody } from "@/tests/support/test-platform";

/** Changes as a message carries them, recorded from these snapshots (each one capture) of vendor "acme". */
export async function notifiedChanges(snapshots: Incident[][], vendorName = "Acme Cloud"): Promise<NotifiedChange[]> {
  const platform = makeTestPlatform({ kind: "recent", limit: 1_000 });
  const db = await freshDatabase();
  const vendor = await ensureVendor(db, { slug: "acme", name: vendorName, platform: platform.name });
  await addSubscription(db, { target: "https://hooks.example/x", format: "webhook", filter: subscriptionFilterSchema.parse({}), watchlist: null, digest: null });
  let observed = Date.parse("2026-03-01T10:00:00.000Z");
  for (const incidents of snapshots) {
    observed += 60_000;
    await ingestSnapshot(db, { vendor, platform, source: "incidents.json", observedAt: new Date(observed).toISOString(), body: snapshotBody(incidents), notify: true });
  }
  // One digest-free subscription at a far future time: every change in as few messages as planning allows.
  await fanOutVersions(db);
  await planWaitingMessages(db, "2099-01-01T00:00:00.000Z");
  const ids = await queryRows<{ id: number }>(db, "SELECT id FROM notification_messages ORDER BY id");
  const links = apiLinks("http://redline.test");
  const carried = [];
  for (const { id } of ids) carried.push(...(await readMessageChanges(db, id)));
  return carried.map((c) => presentCarried(links, c));
}
