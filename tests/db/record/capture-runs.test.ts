import { describe, expect, it } from "vitest";
import { recordObservation } from "@/db/record/record";
import type { RedlineDb } from "@/db/client";
import { queueJob } from "@/db/operations/derivation-jobs";
import { loadVendorExport } from "@/db/queries/incident-history";
import { ensureVendor, type VendorRow } from "@/db/settings/vendors";
import { sha256Hex } from "@/lib/canonicalize";
import { renderExportJson } from "@/lib/export-document";
import { ingestSnapshot } from "@/scrapers/ingest/ingest-snapshot";
import { getPlatform } from "@/scrapers/platforms";
import { runPendingJobs } from "@/scrapers/rederive/job-runner";
import { freshDatabase, queryRows } from "@/tests/support/database";

const PAGE = { id: "p1", name: "Acme", url: "https://status.acme.test" };
const LISTING = "https://status.acme.test/api/v2/incidents.json";
const MAINTENANCES = "https://status.acme.test/api/v2/scheduled-maintenances.json";
const at = (minute: number) => `2026-03-01T10:${String(minute).padStart(2, "0")}:00.000Z`;

function incident(id: string, startedAt = "2026-03-01T09:00:00.000Z") {
  return {
    id, name: `Incident ${id}`, status: "investigating", impact: "minor", shortlink: `https://stspg.io/${id}`,
    created_at: startedAt, started_at: startedAt, resolved_at: null, components: [],
    incident_updates: [{ id: `${id}-u1`, status: "investigating", body: "Looking into it.", created_at: startedAt }],
  };
}

async function listing(db: RedlineDb, vendor: VendorRow, minute: number, ids: string[]): Promise<void> {
  const platform = getPlatform("statuspage-incidents");
  if (!platform) throw new Error("no platform");
  const body = Buffer.from(JSON.stringify({ page: PAGE, incidents: ids.map((id) => incident(id)) }));
  await ingestSnapshot(db, { vendor, platform, source: LISTING, observedAt: at(minute), body });
}

async function summary(db: RedlineDb, vendor: VendorRow, minute: number, incidents: unknown[]): Promise<void> {
  const platform = getPlatform("statuspage-summary");
  if (!platform) throw new Error("no platform");
  const body = Buffer.from(JSON.stringify({ page: PAGE, incidents }));
  await ingestSnapshot(db, { vendor, platform, source: "https://status.acme.test/api/v2/summary.json", observedAt: at(minute), body });
}

async function exportOf(db: RedlineDb): Promise<string> {
  const doc = await loadVendorExport(db, "acme");
  if (!doc) throw new Error("no vendor acme");
  return renderExportJson(doc);
}

/** An unchanged poll of the maintenances endpoint (its body never changes here). */
async function unchangedMaintenances(db: RedlineDb, vendor: VendorRow, minute: number, source = MAINTENANCES): Promise<void> {
  await recordObservation(db, {
    vendorId: vendor.id, source, platform: "statuspage-incidents", observedAt: at(minute), hash: sha256Hex("maintenances"),
    body: null, outcome: "not-modified", error: null, incidentCount: null, warnings: [],
  });
}

/** A source's captures as runs: when each was first and last observed, and how many times. */
function runsOf(db: RedlineDb, source: string) {
  return queryRows<{ first: string; last: string; n: number }>(
    db,
    "SELECT observed_at AS first, last_observed_at AS last, observations AS n FROM captures WHERE source = ? ORDER BY observed_at",
    source,
  );
}

async function maintenanceRuns(db: RedlineDb): Promise<Array<[string, string, number]>> {
  return (await runsOf(db, MAINTENANCES)).map((r) => [r.first, r.last, r.n]);
}

describe("runs of a source beside another", () => {
  it("a capture of another source that derives something ends the run where it stood; one that changes nothing does not", async () => {
    const db = await freshDatabase();
    const vendor = await ensureVendor(db, { slug: "acme", name: "Acme", platform: "statuspage" });
    await listing(db, vendor, 0, ["a"]);
    await unchangedMaintenances(db, vendor, 1);
    await unchangedMaintenances(db, vendor, 2);
    // The same listing again changes nothing and reads no other source's standing: the run goes on.
    await listing(db, vendor, 3, ["a"]);
    await unchangedMaintenances(db, vendor, 4);
    expect(await maintenanceRuns(db)).toEqual([[at(1), at(4), 3]]);
    // A new incident is derived with the maintenances endpoint's standing as it stood at minute 4.
    await listing(db, vendor, 5, ["a", "b"]);
    await unchangedMaintenances(db, vendor, 6);
    await unchangedMaintenances(db, vendor, 7);
    expect(await maintenanceRuns(db)).toEqual([[at(1), at(4), 3], [at(6), at(7), 2]]);
    expect(await runsOf(db, LISTING)).toEqual([
      { first: at(0), last: at(3), n: 2 },
      { first: at(5), last: at(5), n: 1 },
    ]);
  });
});

describe("re-deriving runs", () => {
  it("sees a source's standing where another source's derivation saw it: an incident awaited by a listing that had not looked since", async () => {
    const db = await freshDatabase();
    const vendor = await ensureVendor(db, { slug: "acme", name: "Acme", platform: "statuspage" });
    await listing(db, vendor, 0, ["a"]);
    for (const m of [1, 2, 3, 4]) await unchangedMaintenances(db, vendor, m, LISTING);
    // summary.json lists a new incident, then drops it before incidents.json looks again: that list owes it a listing.
    await summary(db, vendor, 5, [incident("y", "2026-03-01T10:04:00.000Z")]);
    await summary(db, vendor, 6, []);
    for (const m of [7, 8, 9, 10]) await unchangedMaintenances(db, vendor, m, LISTING);
    const live = await exportOf(db);
    expect((JSON.parse(live) as { incidents: Array<{ id: string; presence: string }> }).incidents.find((i) => i.id === "y")?.presence).toBe("listed");
    await queueJob(db, vendor.id, "requested", null);
    await runPendingJobs(db, { vendorId: vendor.id });
    expect(await exportOf(db)).toBe(live);
  });
});
