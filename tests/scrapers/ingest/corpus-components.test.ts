import fs from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import type { RedlineDb } from "@/db/client";
import { loadVendorExport } from "@/db/queries/incident-history";
import { findStatusAt } from "@/db/queries/status-at";
import { ensureVendor } from "@/db/settings/vendors";
import type { ComponentHistory, QuietDegradation } from "@/lib/components/component-history";
import { toStatusPage } from "@/lib/components/status-view";
import { statusRules } from "@/lib/now-rules";
import { importSnapshots, listSnapshotFolder } from "@/scrapers/ingest/import-snapshots";
import { getPlatform } from "@/scrapers/platforms";
import { corpusAvailable, corpusPath, corpusSnapshots, describeCorpus, observedAtOf } from "@/tests/support/corpus";
import { freshDatabase } from "@/tests/support/database";

/**
 * The reference, worked out here from the raw files alone: each component's status word per good
 * snapshot, runs of one word from the capture that first showed it to the first that showed another
 * or no longer listed it, and the stretches in which a component (not a group) was degraded or out
 * while the snapshot listed no open incident.
 */
interface RawComponent { id: string; name: string; status: string; updated_at: string | null; group: boolean | null }
interface RawSnapshot { at: string; components: RawComponent[]; openIncidents: number; open: string[] }

const DEGRADED = new Set(["degraded_performance", "partial_outage", "major_outage"]);
const VOCABULARY: Record<string, string> = {
  operational: "operational", degraded_performance: "degraded", partial_outage: "partial-outage", major_outage: "major-outage", under_maintenance: "maintenance",
};

function readSnapshots(folder: string): RawSnapshot[] {
  const out: RawSnapshot[] = [];
  for (const file of corpusSnapshots(folder)) {
    const text = fs.readFileSync(file, "utf8");
    if (text.trim() === "") continue;
    const json = JSON.parse(text) as {
      components?: RawComponent[];
      incidents: Array<{ id: string; status: string; resolved_at: string | null; impact: string | null; scheduled_for?: string | null }>;
      scheduled_maintenances?: Array<{ id: string; status: string; resolved_at: string | null }>;
    };
    if (!json.components || json.components.length === 0) continue;
    const open = json.incidents.filter((i) => i.resolved_at === null && !["resolved", "postmortem", "completed"].includes(i.status) && !i.scheduled_for && i.impact !== "maintenance");
    const listed = [...json.incidents, ...(json.scheduled_maintenances ?? [])].filter((i) => i.resolved_at === null && !["resolved", "postmortem", "completed"].includes(i.status));
    out.push({ at: observedAtOf(file), components: json.components, openIncidents: open.length, open: listed.map((i) => i.id).sort() });
  }
  return out;
}

interface RefEntry { status: string; vendorStatus: string; from: string; until: string | null; vendorChangedAt: string | null }

function referenceHistories(snapshots: readonly RawSnapshot[]): Map<string, RefEntry[]> {
  const histories = new Map<string, RefEntry[]>();
  for (const snap of snapshots) {
    const listed = new Set<string>();
    for (const c of snap.components) {
      listed.add(c.id);
      const list = histories.get(c.id) ?? [];
      histories.set(c.id, list);
      const last = list.at(-1);
      if (last && last.until === null && last.vendorStatus === c.status) continue;
      if (last && last.until === null) last.until = snap.at;
      list.push({ status: VOCABULARY[c.status] ?? "unknown", vendorStatus: c.status, from: snap.at, until: null, vendorChangedAt: c.updated_at ? new Date(c.updated_at).toISOString() : null });
    }
    for (const [id, list] of histories) {
      const last = list.at(-1);
      if (!listed.has(id) && last && last.until === null) last.until = snap.at;
    }
  }
  return histories;
}

function referenceQuiet(snapshots: readonly RawSnapshot[]): QuietDegradation[] {
  const out: QuietDegradation[] = [];
  let running: QuietDegradation | null = null;
  for (const snap of snapshots) {
    const degraded = snap.components.filter((c) => !c.group && DEGRADED.has(c.status)).map((c) => c.id);
    if (degraded.length > 0 && snap.openIncidents === 0) {
      if (!running) {
        running = { from: snap.at, until: null, components: [] };
        out.push(running);
      }
      running.components = [...new Set([...running.components, ...degraded])].sort();
    } else if (running) {
      running.until = snap.at;
      running = null;
    }
  }
  return out;
}

/** The last good snapshot at or before an instant. */
function snapshotAt(snapshots: readonly RawSnapshot[], at: string): RawSnapshot | undefined {
  let last: RawSnapshot | undefined;
  for (const snap of snapshots) if (snap.at <= at) last = snap;
  return last;
}

/** The state the reference gives at an instant: that of the last good snapshot at or before it. */
function referenceAt(snapshots: readonly RawSnapshot[], at: string): Map<string, string> {
  return new Map((snapshotAt(snapshots, at)?.components ?? []).map((c) => [c.id, c.status]));
}

/** The state the export gives at an instant: the entry whose run covers it. */
function exportAt(components: readonly ComponentHistory[], at: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const c of components) {
    const entry = c.history.find((h) => h.from <= at && (h.until === null || at < h.until));
    if (entry) out.set(c.id, entry.vendorStatus);
  }
  return out;
}

const FOLDERS = [
  { folder: "statuspage-summary-github-2025", vendor: "github" },
  { folder: "statuspage-summary-jira", vendor: "jira" },
  { folder: "statuspage-summary-trello-nonutc", vendor: "trello" },
] as const;

describeCorpus("component history of real Statuspage summary.json histories", () => {
  for (const { folder, vendor } of FOLDERS) {
    describe(`${vendor} (${folder})`, () => {
      let db: RedlineDb;
      let snapshots: RawSnapshot[];
      let components: ComponentHistory[];
      let quiet: QuietDegradation[];

      beforeAll(async () => {
        db = await freshDatabase();
        const platform = getPlatform("statuspage-summary");
        if (!platform) throw new Error("no statuspage-summary platform");
        const row = await ensureVendor(db, { slug: vendor, platform: platform.name });
        await importSnapshots(db, row, platform, listSnapshotFolder(corpusPath(folder)).snapshots);
        const doc = await loadVendorExport(db, vendor);
        components = doc?.components ?? [];
        quiet = doc?.quietDegradations ?? [];
        snapshots = readSnapshots(folder);
      }, 300_000);

      it("records every component transition the snapshots show, at whole seconds, with the vendor's own time", () => {
        expect(corpusAvailable).toBe(true);
        const reference = referenceHistories(snapshots);
        expect(components.map((c) => c.id).sort()).toEqual([...reference.keys()].sort());
        let transitions = 0;
        for (const c of components) {
          const expected = reference.get(c.id) ?? [];
          expect(c.history.map(({ inferred: _inferred, ...h }) => h), c.id).toEqual(expected);
          expect(c.history.every((h) => !h.inferred)).toBe(true);
          transitions += expected.length - 1;
        }
        expect(transitions).toBeGreaterThan(100);
      });

      it("names each component as its last snapshot does", () => {
        const last = snapshots.at(-1);
        for (const c of last?.components ?? []) expect(components.find((h) => h.id === c.id)?.name).toBe(c.name);
      });

      it("finds the stretches in which components were degraded or out while no incident was open", () => {
        expect(quiet).toEqual(referenceQuiet(snapshots));
      });

      it("gives the state as observed at instants between captures", () => {
        // Halfway between consecutive good snapshots, and a second before the next.
        for (let i = 0; i + 1 < snapshots.length; i += 7) {
          const a = Date.parse(snapshots[i]?.at ?? "");
          const b = Date.parse(snapshots[i + 1]?.at ?? "");
          for (const t of [new Date((a + b) / 2).toISOString(), new Date(b - 1_000).toISOString()]) {
            expect(exportAt(components, t), t).toEqual(referenceAt(snapshots, t));
          }
        }
      });

      it("answers the page as it was at a moment from the store: the grid, the incidents open then, the capture it rests on", async () => {
        let checked = 0;
        for (let i = 0; i + 1 < snapshots.length; i += 5) {
          const snap = snapshots[i];
          const next = snapshots[i + 1];
          if (!snap || !next) continue;
          const t = new Date((Date.parse(snap.at) + Date.parse(next.at)) / 2).toISOString();
          const facts = await findStatusAt(db, vendor, t, statusRules());
          if (!facts) throw new Error("no facts");
          const page = toStatusPage(facts);
          const grid = new Map(page.view.components.map((c) => [c.id, c.vendorStatus]));
          expect(grid, t).toEqual(referenceAt(snapshots, t));
          expect(page.view.incidents.map((x) => x.id).sort(), t).toEqual(snap.open);
          // Failed fetches between good snapshots are not observations: the view rests on the last good one.
          expect(page.view.observedAt, t).toBe(snap.at);
          expect(facts.nextObservedAt, t).toBe(next.at);
          checked += 1;
        }
        expect(checked).toBeGreaterThan(40);
      });
    });
  }
});
