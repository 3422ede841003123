import { describe, expect, it } from "vitest";
import { listChangeDetails, listChanges } from "@/db/queries/changes";
import { loadVendorExport } from "@/db/queries/incident-history";
import { getIncidentRecord, getVersionDetail } from "@/db/queries/incident-page";
import { rerenderVersionTexts } from "@/db/version-text";
import { currentSummarizer, type Summarizer } from "@/lib/summarize";
import { archiveAcmeLifecycle } from "@/tests/support/acme-archive";
import { countRows, freshDatabase } from "@/tests/support/database";

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
  db.$client.exec("UPDATE captures SET body_id = NULL; DELETE FROM capture_bodies");
  const incident = db.$client.prepare<[], { id: number; providerId: string; versionCount: number }>(
    "SELECT id, provider_id AS providerId, version_count AS versionCount FROM incidents ORDER BY version_count DESC LIMIT 1",
  ).get();
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
    db.$client.exec("UPDATE incident_versions SET text_version = 0, content = redline_version_with(redline_version_with(content, 'summary', 'stale'), 'headline', 'stale')");
    expect((await listChanges(db, { vendorId: vendor.id }, 100)).rows.map((r) => [r.summary, r.headline])).toEqual(before);
    expect(JSON.stringify(await loadVendorExport(db, vendor.slug))).toBe(expectedExport);
    expect(await rerenderVersionTexts(db)).toBe(before.length);
    const rows = db.$client.prepare<[], { summary: string; textVersion: number }>("SELECT redline_version_field(content, 'summary') AS summary, text_version AS textVersion FROM incident_versions").all();
    expect(rows.every((r) => r.summary !== "stale" && r.textVersion === currentSummarizer.version)).toBe(true);
    expect(await rerenderVersionTexts(db)).toBe(0);
  });

  it("rewrites stored text in place with the new wording, after which reads render nothing again", async () => {
    const { db, vendor } = await archiveWithoutRawBodies();
    const n = await countRows(db, "incident_versions");
    expect(await rerenderVersionTexts(db, reworded, 2)).toBe(n);
    const stale = db.$client.prepare<[number], { n: number }>("SELECT count(*) AS n FROM incident_versions WHERE text_version <> ? OR redline_version_field(content, 'summary') NOT LIKE '[v2] %'").get(reworded.version);
    expect(stale?.n).toBe(0);
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
    const stale = db.$client.prepare<[number], { incidents: number }>("SELECT count(DISTINCT incident_id) AS incidents FROM incident_versions WHERE text_version <> ?");
    expect(stale.get(reworded.version)?.incidents).toBe(incidents - 2);
    expect(first + (await rerenderVersionTexts(db, reworded, 2))).toBe(await countRows(db, "incident_versions"));
  });
});
