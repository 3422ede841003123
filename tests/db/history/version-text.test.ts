import { describe, expect, it } from "vitest";
import { listChangeDetails, listChanges } from "@/db/queries/changes";
import { loadVendorExport } from "@/db/queries/incident-history";
import { getIncidentRecord, getVersionDetail } from "@/db/queries/incident-page";
import type { RedlineDb } from "@/db/client";
import { unpackVersionText, withVersionText } from "@/db/history/version-content";
import { rerenderVersionTexts } from "@/db/history/version-text";
import { currentSummarizer, type Summarizer } from "@/lib/summarize";
import { archiveAcmeLifecycle } from "@/tests/support/acme-archive";
import { countRows, freshDatabase, queryRow, queryRows, runSql } from "@/tests/support/database";

/** Every version's stored summary and text version, decoded from its content. */
async function storedTexts(db: RedlineDb): Promise<Array<{ summary: string; textVersion: number }>> {
  const rows = await queryRows<{ content: Buffer; textVersion: number }>(db, "SELECT content, text_version AS textVersion FROM incident_versions ORDER BY id");
  return rows.map((r) => ({ summary: unpackVersionText(r.content).summary, textVersion: r.textVersion }));
}

/** Wording of a summarizer version after the stored one: each sentence marked, so its text is told apart. */
const reworded: Summarizer = {
  version: currentSummarizer.version + 1,
  summarize: (input) => `[v2] ${currentSummarizer.summarize(input)}`,
  headline: (input) => `[v2] ${currentSummarizer.headline(input)}`,
};

async function archiveWithoutRawBodies() {
  const db = await freshDatabase();
  const vendor = await archiveAcmeLifecycle(db);
  // Nothing below may re-derive from raw captures: there are none left to read.
  await db.connection.exec("UPDATE captures SET body_id = NULL; DELETE FROM capture_bodies");
  const incident = await queryRow<{ id: number; providerId: string; versionCount: number }>(
    db,
    "SELECT id, provider_id AS providerId, version_count AS versionCount FROM incidents ORDER BY version_count DESC, id LIMIT 1",
  );
  if (!incident) throw new Error("no incident archived");
  return { db, vendor, incident };
}

describe("summaries and headlines derived by a versioned summarizer", () => {
  it("shows the new wording everywhere a version's text is read once the summarizer changes, without any raw capture", async () => {
    const { db, vendor, incident } = await archiveWithoutRawBodies();
    expect(await countRows(db, "capture_bodies")).toBe(0);
    const stored = await getVersionDetail(db, incident.id, incident.versionCount);
    expect(stored?.summary).not.toMatch(/^\[v2\]/);

    const detail = await getVersionDetail(db, incident.id, incident.versionCount, reworded);
    expect(detail?.summary).toBe(`[v2] ${stored?.summary ?? ""}`);
    const record = await getIncidentRecord(db, vendor.id, incident.providerId, reworded);
    expect(record?.versions.every((v) => v.summary.startsWith("[v2] "))).toBe(true);
    const changes = await listChanges(db, { vendorId: vendor.id }, 100, reworded);
    expect(changes.rows.length).toBe(await countRows(db, "incident_versions"));
    expect(changes.rows.every((r) => r.summary.startsWith("[v2] ") && r.headline.startsWith("[v2] "))).toBe(true);
    const details = await listChangeDetails(db, { vendorId: vendor.id }, 100, reworded);
    expect(details.rows.every((r) => r.summary.startsWith("[v2] "))).toBe(true);
    const exported = await loadVendorExport(db, vendor.slug, undefined, reworded);
    expect(exported?.incidents.flatMap((i) => i.versions).every((v) => v.summary.startsWith("[v2] "))).toBe(true);
  });

  it("renders the stored wording again exactly from the stored changes and rebuilt states", async () => {
    const { db, vendor } = await archiveWithoutRawBodies();
    const before = (await listChanges(db, { vendorId: vendor.id }, 100)).rows.map((r) => [r.summary, r.headline]);
    const expectedExport = JSON.stringify(await loadVendorExport(db, vendor.slug));
    // Mark every text as written by an older summarizer, then let the current one write it again.
    for (const { id, content } of await queryRows<{ id: number; content: Buffer }>(db, "SELECT id, content FROM incident_versions")) {
      await runSql(db, "UPDATE incident_versions SET text_version = 0, content = ? WHERE id = ?", withVersionText(content, { summary: "stale", headline: "stale" }), id);
    }
    expect((await listChanges(db, { vendorId: vendor.id }, 100)).rows.map((r) => [r.summary, r.headline])).toEqual(before);
    expect(JSON.stringify(await loadVendorExport(db, vendor.slug))).toBe(expectedExport);
    expect(await rerenderVersionTexts(db)).toBe(before.length);
    const rows = await storedTexts(db);
    expect(rows.length).toBe(before.length);
    expect(rows.every((r) => r.summary !== "stale" && r.textVersion === currentSummarizer.version)).toBe(true);
    expect(await rerenderVersionTexts(db)).toBe(0);
  });

  it("rewrites stored text in place with the new wording, after which reads render nothing again", async () => {
    const { db, vendor } = await archiveWithoutRawBodies();
    const n = await countRows(db, "incident_versions");
    expect(await rerenderVersionTexts(db, reworded, 2)).toBe(n);
    const rows = await storedTexts(db);
    expect(rows).toHaveLength(n);
    expect(rows.filter((r) => r.textVersion !== reworded.version || !r.summary.startsWith("[v2] "))).toEqual([]);
    expect((await listChanges(db, { vendorId: vendor.id }, 100, reworded)).rows.every((r) => r.headline.startsWith("[v2] "))).toBe(true);
  });
});

describe("rendering stale text a few incidents at a time", () => {
  it("rewrites only the batches asked for, and the rest on later calls", async () => {
    const { db } = await archiveWithoutRawBodies();
    const incidents = await countRows(db, "incidents");
    expect(incidents).toBeGreaterThan(2);
    const first = await rerenderVersionTexts(db, reworded, 2, 1);
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThan(await countRows(db, "incident_versions"));
    const stale = await queryRow<{ incidents: number }>(db, "SELECT count(DISTINCT incident_id) AS incidents FROM incident_versions WHERE text_version <> ?", reworded.version);
    expect(stale?.incidents).toBe(incidents - 2);
    expect(first + (await rerenderVersionTexts(db, reworded, 2))).toBe(await countRows(db, "incident_versions"));
  });
});
