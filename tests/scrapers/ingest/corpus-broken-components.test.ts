import { beforeAll, expect, it } from "vitest";
import type { RedlineDb } from "@/db/client";
import { loadVendorExport } from "@/db/queries/incident-history";
import { ensureVendor } from "@/db/settings/vendors";
import type { ComponentHistory } from "@/lib/components/component-history";
import { type ImportSummary, importSnapshots, listSnapshotFolder, type SnapshotSource } from "@/scrapers/ingest/import-snapshots";
import { getPlatform } from "@/scrapers/platforms";
import { corpusPath, describeCorpus } from "@/tests/support/corpus";
import { freshDatabase, queryRows } from "@/tests/support/database";

/**
 * GitHub's and Jira's real summary.json histories with one component broken in every third snapshot,
 * in turn: a state that is no text, then no id at all. Each costs only that component.
 */
type Raw = { components: Array<Record<string, unknown>> };

const BREAKS: Array<{ edit: (component: Record<string, unknown>) => void; path: RegExp }> = [
  { edit: (c) => (c.status = 3), path: /^components\[(\d+)\]\.status$/ },
  { edit: (c) => delete c.id, path: /^components\[(\d+)\]\.id$/ },
];

function rawOf(s: SnapshotSource): Raw | null {
  const body = Buffer.from(s.read()).toString("utf8");
  return body.trim() === "" ? null : (JSON.parse(body) as Raw);
}

/** The component whose state changes most often: breaking it hides the most. */
function chooseVictim(snapshots: readonly SnapshotSource[]): string {
  const changes = new Map<string, number>();
  const last = new Map<string, unknown>();
  for (const s of snapshots) {
    for (const c of rawOf(s)?.components ?? []) {
      const id = String(c.id);
      if (last.has(id) && last.get(id) !== c.status) changes.set(id, (changes.get(id) ?? 0) + 1);
      last.set(id, c.status);
    }
  }
  return [...changes].sort((a, b) => b[1] - a[1])[0]?.[0] ?? "";
}

function breakSnapshots(snapshots: readonly SnapshotSource[], victim: string): { snapshots: SnapshotSource[]; broken: Map<string, RegExp> } {
  const broken = new Map<string, RegExp>();
  let good = 0;
  const out = snapshots.map((s) => {
    const raw = rawOf(s);
    const component = raw?.components.find((c) => c.id === victim);
    if (!raw || !component || good++ % 3 !== 0) return s;
    const kind = BREAKS[broken.size % BREAKS.length];
    if (!kind) return s;
    kind.edit(component);
    broken.set(s.observedAt, kind.path);
    const bytes = Buffer.from(JSON.stringify(raw));
    return { ...s, read: () => bytes };
  });
  return { snapshots: out, broken };
}

async function histories(db: RedlineDb, slug: string): Promise<ComponentHistory[]> {
  return (await loadVendorExport(db, slug))?.components ?? [];
}

for (const folder of ["statuspage-summary-github-2025", "statuspage-summary-jira"]) {
  describeCorpus(`corpus: ${folder} with one component broken in every third snapshot`, () => {
    const state = {} as { clean: RedlineDb; broken: RedlineDb; summary: ImportSummary; brokenAt: Map<string, RegExp>; victim: string };
    beforeAll(async () => {
      const platform = getPlatform("statuspage-summary");
      if (!platform) throw new Error("no statuspage-summary platform");
      const { snapshots } = listSnapshotFolder(corpusPath(folder));
      state.clean = await freshDatabase();
      await importSnapshots(state.clean, await ensureVendor(state.clean, { slug: "vendor", platform: platform.name }), platform, snapshots);
      state.victim = chooseVictim(snapshots);
      const mutated = breakSnapshots(snapshots, state.victim);
      state.brokenAt = mutated.broken;
      state.broken = await freshDatabase();
      state.summary = await importSnapshots(state.broken, await ensureVendor(state.broken, { slug: "vendor", platform: platform.name }), platform, mutated.snapshots);
    }, 600_000);

    it("breaks a component that changes state in many snapshots, each recorded as a good capture with warnings", () => {
      expect(state.victim).not.toBe("");
      expect(state.brokenAt.size).toBeGreaterThanOrEqual(60);
      expect(state.summary.invalid).toBe(0);
      expect(state.summary.withWarnings).toBe(state.brokenAt.size);
    });

    it("leaves every other component's history exactly as the unbroken snapshots give it", async () => {
      const others = async (db: RedlineDb) => (await histories(db, "vendor")).filter((c) => c.id !== state.victim);
      const clean = await others(state.clean);
      expect(await others(state.broken)).toEqual(clean);
      expect(clean.flatMap((c) => c.history).length).toBeGreaterThan(clean.length);
    });

    it("never takes the broken component off the page, and keeps its state through the snapshots that could not say it", async () => {
      const [victim] = (await histories(state.broken, "vendor")).filter((c) => c.id === state.victim);
      const [clean] = (await histories(state.clean, "vendor")).filter((c) => c.id === state.victim);
      expect(victim?.history.at(-1)?.until).toBeNull();
      // Every state it was in was seen in the unbroken history too, from no earlier a capture.
      for (const h of victim?.history ?? []) expect(clean?.history.some((c) => c.status === h.status && c.from <= h.from)).toBe(true);
    });

    it("names the broken component's path in the warnings of each capture that broke it", async () => {
      const rows = await queryRows<{ observedAt: string; warnings: string }>(
        state.broken,
        "SELECT observed_at AS \"observedAt\", warnings FROM captures WHERE warning_count > 0 ORDER BY observed_at",
      );
      expect(new Set(rows.map((r) => r.observedAt))).toEqual(new Set(state.brokenAt.keys()));
      for (const row of rows) {
        const paths = (JSON.parse(row.warnings) as Array<{ path: string }>).map((w) => w.path);
        const expected = state.brokenAt.get(row.observedAt);
        expect(paths.some((p) => expected?.test(p)), `${row.observedAt}: ${paths.join(", ")}`).toBe(true);
      }
    });
  });
}
