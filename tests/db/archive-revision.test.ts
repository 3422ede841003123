import { describe, expect, it } from "vitest";
import { getArchiveRevision } from "@/db/queries/archive-revision";
import { addLiveSource, addVendor, ensureVendor, removeVendor, syncCatalogVendors } from "@/db/settings/vendors";
import { ingestSnapshot } from "@/scrapers/ingest/ingest-snapshot";
import { freshDatabase } from "@/tests/support/database";
import { makeIncident } from "@/tests/support/incidents";
import { makeTestPlatform, snapshotBody } from "@/tests/support/test-platform";

describe("archive revision", () => {
  it("moves when a version is recorded and stays put when a poll finds nothing new", async () => {
    const db = await freshDatabase();
    const platform = makeTestPlatform({ kind: "recent", limit: 25 });
    const acme = await ensureVendor(db, { slug: "acme", name: "Acme", platform: platform.name });
    const start = await getArchiveRevision(db);
    const incident = makeIncident({ vendor: "acme", id: "1", title: "API errors" });
    await ingestSnapshot(db, { vendor: acme, platform, source: "feed", observedAt: "2026-05-01T00:00:00.000Z", body: snapshotBody([incident]) });
    const afterNew = await getArchiveRevision(db);
    expect(afterNew).toBeGreaterThan(start);
    await ingestSnapshot(db, { vendor: acme, platform, source: "feed", observedAt: "2026-05-01T00:05:00.000Z", body: snapshotBody([incident]) });
    expect(await getArchiveRevision(db)).toBe(afterNew);
    await ingestSnapshot(db, { vendor: acme, platform, source: "feed", observedAt: "2026-05-01T00:10:00.000Z", body: snapshotBody([{ ...incident, title: "API errors in EU" }]) });
    expect(await getArchiveRevision(db)).toBeGreaterThan(afterNew);
  });

  it("moves when a vendor is added, renamed, removed or polled again", async () => {
    const db = await freshDatabase();
    const settings = { slug: "acme", name: "Acme", platform: "statuspage", url: "https://status.acme.test" };
    let last = await getArchiveRevision(db);
    const steps = [
      () => syncCatalogVendors(db, [settings]),
      () => syncCatalogVendors(db, [{ ...settings, name: "Acme Cloud" }]),
      () => removeVendor(db, "acme", false),
      () => addLiveSource(db, settings),
      () => removeVendor(db, "acme", true),
      () => addVendor(db, settings, "user"),
    ];
    for (const step of steps) {
      await step();
      const now = await getArchiveRevision(db);
      expect(now).toBeGreaterThan(last);
      last = now;
    }
  });
});
