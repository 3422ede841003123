import fs from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import type { RedlineDb } from "@/db/client";
import { resolveIncidentPage } from "@/db/queries/incident-route";
import type { VendorRow } from "@/db/settings/vendors";
import { POSTED_LATE_MIN_MS } from "@/lib/posted-late";
import { corpusAvailable, corpusSnapshots, describeCorpus, observedAtOf } from "@/tests/support/corpus";
import { importSummaryHistory, SUMMARY_HISTORIES } from "@/tests/support/corpus-histories";
import { freshDatabase, queryRows } from "@/tests/support/database";

/**
 * The reference, worked out here from the raw files alone: an incident or update first listed in
 * a snapshot after a good one, whose given time (the incident's start; the update's display, else
 * creation, time) is at least a minute before that previous snapshot, was posted late by the
 * difference. A summary.json lists incidents while they are unresolved, so every one it shows it
 * shows from when it is posted.
 */
interface RawUpdate { id: string; created_at: string | null; display_at: string | null }
interface RawIncident { id: string; started_at: string | null; created_at: string | null; incident_updates: RawUpdate[] }

function referenceLate(folder: string): { incidents: Map<string, number>; updates: Map<string, number> } {
  const incidents = new Map<string, number>();
  const updates = new Map<string, number>();
  const seenIncidents = new Set<string>();
  const seenUpdates = new Set<string>();
  let previous: string | null = null;
  for (const file of corpusSnapshots(folder)) {
    const text = fs.readFileSync(file, "utf8");
    if (text.trim() === "") continue;
    const at = observedAtOf(file);
    const json = JSON.parse(text) as { incidents: RawIncident[]; scheduled_maintenances?: RawIncident[] };
    const late = (given: string | null) => (previous === null || given === null ? null : Date.parse(previous) - Date.parse(given));
    for (const [list, kind] of [[json.incidents, "incident"], [json.scheduled_maintenances ?? [], "maintenance"]] as const) {
      for (const i of list) {
        if (!seenIncidents.has(i.id)) {
          seenIncidents.add(i.id);
          const ms = kind === "incident" ? late(i.started_at ?? i.created_at) : null;
          if (ms !== null && ms >= POSTED_LATE_MIN_MS) incidents.set(i.id, ms);
        }
        for (const u of i.incident_updates) {
          if (seenUpdates.has(u.id)) continue;
          seenUpdates.add(u.id);
          const ms = late(u.display_at ?? u.created_at);
          if (ms !== null && ms >= POSTED_LATE_MIN_MS) updates.set(u.id, ms);
        }
      }
    }
    previous = at;
  }
  return { incidents, updates };
}

describeCorpus("posted late on real Statuspage summary.json histories", () => {
  let total = 0;
  for (const { folder, vendor } of SUMMARY_HISTORIES) {
    describe(`${vendor} (${folder})`, () => {
      let db: RedlineDb;
      let row: VendorRow;

      beforeAll(async () => {
        db = await freshDatabase();
        row = await importSummaryHistory(db, folder, vendor);
      }, 300_000);

      it("finds every incident and update the raw snapshots show posted late, by as much, and no other", async () => {
        expect(corpusAvailable).toBe(true);
        const want = referenceLate(folder);
        const incidents = new Map<string, number>();
        const updates = new Map<string, number>();
        for (const { providerId } of await queryRows<{ providerId: string }>(db, `SELECT provider_id AS "providerId" FROM incidents WHERE vendor_id = ?`, row.id)) {
          const page = await resolveIncidentPage(db, vendor, providerId);
          if (!page) throw new Error(`no page for ${providerId}`);
          const found = page.timing.postedLate;
          if (found.incident) incidents.set(providerId, found.incident.atLeastMs);
          for (const u of found.updates) updates.set(u.updateId, u.atLeastMs);
        }
        expect(new Map([...incidents].sort())).toEqual(new Map([...want.incidents].sort()));
        expect(new Map([...updates].sort())).toEqual(new Map([...want.updates].sort()));
        total += want.incidents.size + want.updates.size;
      });
    });
  }

  it("found some posted late in the three histories together", () => {
    expect(total).toBeGreaterThan(0);
  });
});
