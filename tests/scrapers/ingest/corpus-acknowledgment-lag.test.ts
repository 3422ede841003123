import fs from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import type { RedlineDb } from "@/db/client";
import { loadRunsBeforeSighting } from "@/db/queries/incident-timing";
import type { VendorRow } from "@/db/settings/vendors";
import { ACKNOWLEDGMENT_WINDOW_MS, acknowledgmentLagOf } from "@/lib/components/acknowledgment-lag";
import { corpusAvailable, corpusSnapshots, describeCorpus, observedAtOf } from "@/tests/support/corpus";
import { importSummaryHistory, SUMMARY_HISTORIES } from "@/tests/support/corpus-histories";
import { freshDatabase, queryRows } from "@/tests/support/database";

/**
 * The reference, worked out here from the raw files alone: an incident's first sighting is the
 * first snapshot listing it; a component's degradation starts at a snapshot with a component list
 * showing it degraded or out where the previous such snapshot did not; the lag is the earliest
 * start, among the components the incident last named, in the six hours up to the sighting.
 */
interface RawIncident { id: string; started_at: string | null; created_at: string | null; components?: Array<{ id: string }> }
interface RawSnapshot { at: string; components: Array<{ id: string; status: string }> | null; incidents: RawIncident[] }

const DEGRADED = new Set(["degraded_performance", "partial_outage", "major_outage"]);

function readSnapshots(folder: string): RawSnapshot[] {
  const out: RawSnapshot[] = [];
  for (const file of corpusSnapshots(folder)) {
    const text = fs.readFileSync(file, "utf8");
    if (text.trim() === "") continue;
    const json = JSON.parse(text) as { components?: RawSnapshot["components"]; incidents: RawIncident[] };
    out.push({ at: observedAtOf(file), components: json.components && json.components.length > 0 ? json.components : null, incidents: json.incidents });
  }
  return out;
}

interface ReferenceLag { degradedFrom: string; beforeSightingMs: number; beforeStatedStartMs: number | null }

function referenceLags(snapshots: readonly RawSnapshot[]): Map<string, ReferenceLag | null> {
  const starts = new Map<string, string[]>();
  const degradedBefore = new Set<string>();
  for (const snap of snapshots) {
    if (!snap.components) continue;
    const now = new Set(snap.components.filter((c) => DEGRADED.has(c.status)).map((c) => c.id));
    for (const id of now) if (!degradedBefore.has(id)) starts.set(id, [...(starts.get(id) ?? []), snap.at]);
    degradedBefore.clear();
    for (const id of now) degradedBefore.add(id);
  }
  const sighted = new Map<string, string>();
  const last = new Map<string, RawIncident>();
  // A start re-saved less than a second away (at lower precision) is the same start: the first statement stays.
  const startOf = new Map<string, string | null>();
  for (const snap of snapshots) {
    for (const i of snap.incidents) {
      if (!sighted.has(i.id)) sighted.set(i.id, snap.at);
      last.set(i.id, i);
      const stated = i.started_at ?? i.created_at ?? null;
      const was = startOf.get(i.id);
      if (was === undefined || was === null || stated === null || Math.abs(Date.parse(stated) - Date.parse(was)) >= 1_000) startOf.set(i.id, stated);
    }
  }
  const out = new Map<string, ReferenceLag | null>();
  for (const [id, at] of sighted) {
    const incident = last.get(id);
    const named = incident?.components ?? [];
    if (named.length === 0) continue;
    const t = Date.parse(at);
    const candidates = named.flatMap((c) => starts.get(c.id) ?? []).filter((s) => Date.parse(s) >= t - ACKNOWLEDGMENT_WINDOW_MS && Date.parse(s) <= t).sort();
    const first = candidates[0];
    const stated = startOf.get(id) ?? null;
    out.set(id, first === undefined ? null : {
      degradedFrom: first,
      beforeSightingMs: t - Date.parse(first),
      beforeStatedStartMs: stated === null ? null : Date.parse(stated) - Date.parse(first),
    });
  }
  return out;
}

describeCorpus("acknowledgment lag on real Statuspage summary.json histories", () => {
  let total = 0;
  for (const { folder, vendor } of SUMMARY_HISTORIES) {
    describe(`${vendor} (${folder})`, () => {
      let db: RedlineDb;
      let row: VendorRow;

      beforeAll(async () => {
        db = await freshDatabase();
        row = await importSummaryHistory(db, folder, vendor);
      }, 300_000);

      it("gives every incident naming components the lag the raw snapshots give", async () => {
        expect(corpusAvailable).toBe(true);
        const reference = referenceLags(readSnapshots(folder));
        const stored = await queryRows<{ id: number; providerId: string; firstSeenAt: string; startedAt: string | null; kind: string }>(
          db, `SELECT id, provider_id AS "providerId", first_seen_at AS "firstSeenAt", started_at AS "startedAt", kind FROM incidents WHERE vendor_id = ? AND kind = 'incident'`, row.id,
        );
        const components = await queryRows<{ incidentId: number; componentId: string; name: string }>(
          db, `SELECT incident_id AS "incidentId", component_id AS "componentId", name FROM incident_components WHERE vendor_id = ?`, row.id,
        );
        let compared = 0;
        for (const incident of stored) {
          const named = components.filter((c) => c.incidentId === incident.id).map((c) => ({ id: c.componentId, name: c.name }));
          if (named.length === 0) continue;
          const runs = await loadRunsBeforeSighting(db, row.id, named.map((c) => c.id), incident.firstSeenAt);
          const lag = acknowledgmentLagOf({ firstSeenAt: incident.firstSeenAt, startedAt: incident.startedAt, components: named }, runs);
          const want = reference.get(incident.providerId);
          expect(lag === null ? null : { degradedFrom: lag.degradedFrom, beforeSightingMs: lag.beforeSightingMs, beforeStatedStartMs: lag.beforeStatedStartMs }, incident.providerId).toEqual(want ?? null);
          if (want) compared += 1;
        }
        total += compared;
        expect(compared).toBeGreaterThan(0);
      });
    });
  }

  it("found lags in all three histories together", () => {
    expect(total).toBeGreaterThan(10);
  });
});
