import { describe, expect, it } from "vitest";
import { getArchiveChangePosition, listArchiveChangesSince } from "@/db/queries/archive-changes";
import { removeVendor, syncCatalogVendors, ensureVendor } from "@/db/settings/vendors";
import { ingestSnapshot } from "@/scrapers/ingest/ingest-snapshot";
import { freshDatabase } from "@/tests/support/database";
import { makeIncident } from "@/tests/support/incidents";
import { makeTestPlatform, snapshotBody } from "@/tests/support/test-platform";

const whom = (rows: { vendorSlug: string | null; providerId: string | null }[]) => rows.map((r) => `${r.vendorSlug ?? "?"}/${r.providerId ?? "*"}`);

describe("archive changes", () => {
  it("names the vendor and incident of each version recorded, and nothing for a poll that finds nothing new", async () => {
    const db = await freshDatabase();
    const platform = makeTestPlatform({ kind: "recent", limit: 25 });
    const acme = await ensureVendor(db, { slug: "acme", name: "Acme", platform: platform.name });
    const globex = await ensureVendor(db, { slug: "globex", name: "Globex", platform: platform.name });
    const start = await getArchiveChangePosition(db);
    const incident = makeIncident({ vendor: "acme", id: "1", title: "API errors" });
    await ingestSnapshot(db, { vendor: acme, platform, source: "feed", observedAt: "2026-05-01T00:00:00.000Z", body: snapshotBody([incident]) });
    const afterNew = await getArchiveChangePosition(db);
    await ingestSnapshot(db, { vendor: acme, platform, source: "feed", observedAt: "2026-05-01T00:05:00.000Z", body: snapshotBody([incident]) });
    expect(await getArchiveChangePosition(db)).toBe(afterNew);
    await ingestSnapshot(db, { vendor: globex, platform, source: "feed", observedAt: "2026-05-01T00:10:00.000Z", body: snapshotBody([makeIncident({ vendor: "globex", id: "g-7", title: "Login errors" })]) });
    const changes = await listArchiveChangesSince(db, start, 100);
    expect(new Set(whom(changes))).toEqual(new Set(["acme/1", "globex/g-7"]));
    expect(changes.at(-1)?.seq).toBe(await getArchiveChangePosition(db));
    expect(whom(await listArchiveChangesSince(db, afterNew, 100))).toEqual(["globex/g-7"]);
  });

  it("records the kinds of each version written or removed, and none for a vendor's change", async () => {
    const db = await freshDatabase();
    const platform = makeTestPlatform({ kind: "recent", limit: 25 });
    const acme = await ensureVendor(db, { slug: "acme", name: "Acme", platform: platform.name });
    const start = await getArchiveChangePosition(db);
    await ingestSnapshot(db, { vendor: acme, platform, source: "feed", observedAt: "2026-05-01T00:00:00.000Z", body: snapshotBody([makeIncident({ vendor: "acme", id: "1", title: "API errors" })]) });
    const afterNew = await getArchiveChangePosition(db);
    await ingestSnapshot(db, { vendor: acme, platform, source: "feed", observedAt: "2026-05-01T00:05:00.000Z", body: snapshotBody([makeIncident({ vendor: "acme", id: "1", title: "API and login errors" })]) });
    const written = await listArchiveChangesSince(db, start, 100);
    expect(written.map((c) => c.kinds)).toEqual([expect.arrayContaining(["incident-new"]), expect.arrayContaining(["title-changed"])]);
    expect(written[1]?.kinds).not.toContain("incident-new");
    const stored = await db.connection.prepare<[], { kinds: string }>("SELECT kinds FROM incident_versions ORDER BY id").all();
    expect(written.map((c) => c.kinds)).toEqual(stored.map((v) => JSON.parse(v.kinds) as string[]));
    const beforeDelete = await getArchiveChangePosition(db);
    await db.connection.prepare("DELETE FROM incident_versions WHERE id = (SELECT max(id) FROM incident_versions)").run();
    expect((await listArchiveChangesSince(db, beforeDelete, 10)).map((c) => c.kinds)).toEqual([written[1]?.kinds]);
    await db.connection.prepare("UPDATE vendors SET name = 'Acme Cloud' WHERE slug = 'acme'").run();
    expect((await listArchiveChangesSince(db, afterNew + 1, 10)).at(-1)).toMatchObject({ vendorSlug: "acme", providerId: null, kinds: null });
  });

  it("names a renamed vendor under its old and new slug, and a removed one under its slug", async () => {
    const db = await freshDatabase();
    const settings = { slug: "acme", name: "Acme", platform: "statuspage", url: "https://status.acme.test" };
    await syncCatalogVendors(db, [settings]);
    const before = await getArchiveChangePosition(db);
    await db.connection.prepare("UPDATE vendors SET slug = 'acme-cloud' WHERE slug = 'acme'").run();
    expect(whom(await listArchiveChangesSince(db, before, 10))).toEqual(["acme/*", "acme-cloud/*"]);
    const renamed = await getArchiveChangePosition(db);
    await removeVendor(db, "acme-cloud", true);
    expect(whom(await listArchiveChangesSince(db, renamed, 10))).toContain("acme-cloud/*");
  });

  it("keeps only the newest 4,096 changes", async () => {
    const db = await freshDatabase();
    await db.connection
      .prepare("WITH RECURSIVE n (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000) INSERT INTO archive_changes (vendor_slug, provider_id) SELECT 'x', NULL FROM n")
      .run();
    await syncCatalogVendors(db, [{ slug: "acme", name: "Acme", platform: "statuspage", url: "https://status.acme.test" }]);
    const newest = await getArchiveChangePosition(db);
    const kept = await listArchiveChangesSince(db, 0, 10_000);
    expect(kept).toHaveLength(4_096);
    expect(kept[0]?.seq).toBe(newest - 4_095);
  });
});
