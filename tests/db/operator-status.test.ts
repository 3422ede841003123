import { describe, expect, it } from "vitest";
import { recordObservation } from "@/db/record/record";
import type { RedlineDb } from "@/db/client";
import { savePollState } from "@/db/operations/poll-state";
import { listVendorPollStatus } from "@/db/queries/operator-status";
import { ensureVendor, type VendorRow } from "@/db/settings/vendors";
import { sha256Hex } from "@/lib/canonicalize";
import { freshDatabase } from "@/tests/support/database";

const SOURCE = "https://status.acme.test/api/v2/summary.json";
const at = (hour: number) => `2026-03-01T${String(hour).padStart(2, "0")}:00:00.000Z`;

async function observe(db: RedlineDb, vendor: VendorRow, hour: number, outcome: "not-modified" | "failed", error: string | null = null): Promise<void> {
  await recordObservation(db, {
    vendorId: vendor.id, source: SOURCE, platform: "statuspage-summary", observedAt: at(hour), hash: sha256Hex(outcome),
    body: null, outcome, error, incidentCount: null, warnings: [],
  });
}

async function pollState(db: RedlineDb, vendor: VendorRow, hour: number, ok: boolean): Promise<void> {
  await savePollState(db, {
    vendorId: vendor.id, nextPollAt: at(hour + 1), lastPollAt: at(hour), lastOutcome: ok ? "ok" : "failed",
    lastError: ok ? null : "acme: cannot resolve status.acme.test (EAI_AGAIN)", consecutiveFailures: ok ? 0 : 3, backoffSeconds: 0,
  });
}

describe("a vendor's polling status", () => {
  it("says since when a failing vendor has failed: its first failure after its last good poll", async () => {
    const db = await freshDatabase();
    const vendor = await ensureVendor(db, { slug: "acme", name: "Acme", platform: "statuspage-summary" });
    await observe(db, vendor, 1, "failed", "acme: an earlier failure");
    await observe(db, vendor, 2, "not-modified");
    await observe(db, vendor, 3, "not-modified");
    await observe(db, vendor, 4, "failed", "acme: cannot resolve status.acme.test (EAI_AGAIN)");
    await observe(db, vendor, 5, "failed", "acme: cannot resolve status.acme.test (EAI_AGAIN)");
    await pollState(db, vendor, 5, false);
    expect((await listVendorPollStatus(db))[0]).toMatchObject({ slug: "acme", failingSince: at(4), lastPollAt: at(5) });
  });

  it("has no failing-since for a vendor whose last poll was good", async () => {
    const db = await freshDatabase();
    const vendor = await ensureVendor(db, { slug: "acme", name: "Acme", platform: "statuspage-summary" });
    await observe(db, vendor, 1, "failed", "acme: a failure");
    await observe(db, vendor, 2, "not-modified");
    await pollState(db, vendor, 2, true);
    expect((await listVendorPollStatus(db))[0]?.failingSince).toBeNull();
  });
});
