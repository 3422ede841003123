import { beforeAll, expect, it } from "vitest";
import type { RedlineDb } from "@/db/client";
import { ensureVendor } from "@/db/settings/vendors";
import { type ImportSummary, importSnapshots, listSnapshotFolder, type SnapshotSource } from "@/scrapers/ingest/import-snapshots";
import { getPlatform } from "@/scrapers/platforms";
import { corpusPath, describeCorpus } from "@/tests/support/corpus";
import { freshDatabase, queryRows } from "@/tests/support/database";
import { readVersionRows } from "@/tests/support/version-rows";

/**
 * Jira's real summary.json history with one incident broken in every third snapshot that lists it,
 * in turn: a component without an id, an update with an unreadable time, an unknown impact word.
 */
const FOLDER = "statuspage-summary-jira";

type Raw = { incidents: Array<Record<string, unknown>> };

const BREAKS: Array<(incident: Record<string, unknown>) => boolean> = [
  (incident) => {
    const components = incident.components as Array<Record<string, unknown>> | undefined;
    if (!components?.[0]) return false;
    delete components[0].id;
    return true;
  },
  (incident) => {
    const updates = incident.incident_updates as Array<Record<string, unknown>> | undefined;
    if (!updates?.[0]) return false;
    updates[0].display_at = "the other day";
    return true;
  },
  (incident) => {
    incident.impact = "apocalyptic";
    return true;
  },
];

function rawOf(s: SnapshotSource): Raw | null {
  const body = Buffer.from(s.read()).toString("utf8");
  return body.trim() === "" ? null : (JSON.parse(body) as Raw);
}

/** The incident the most snapshots list, with components and updates to break. */
function chooseVictim(snapshots: readonly SnapshotSource[]): string {
  const counts = new Map<string, number>();
  for (const s of snapshots) {
    for (const i of rawOf(s)?.incidents ?? []) {
      if ((i.components as unknown[] | undefined)?.length && (i.incident_updates as unknown[] | undefined)?.length) counts.set(String(i.id), (counts.get(String(i.id)) ?? 0) + 1);
    }
  }
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? "";
}

function breakSnapshots(snapshots: readonly SnapshotSource[], victim: string): { snapshots: SnapshotSource[]; broken: Set<string> } {
  const broken = new Set<string>();
  let appearance = 0;
  const out = snapshots.map((s) => {
    const raw = rawOf(s);
    const incident = raw?.incidents.find((i) => i.id === victim);
    if (!raw || !incident || appearance++ % 3 !== 0) return s;
    const edit = BREAKS[broken.size % BREAKS.length];
    if (!edit?.(incident)) return s;
    broken.add(s.observedAt);
    const bytes = Buffer.from(JSON.stringify(raw));
    return { ...s, read: () => bytes };
  });
  return { snapshots: out, broken };
}

interface Row {
  providerId: string;
  line: string;
}

async function history(db: RedlineDb): Promise<Row[]> {
  return (await readVersionRows(db)).map((v) => ({ providerId: v.providerId, line: `${v.seq} ${v.observedAt} ${JSON.stringify(v.kinds)} ${JSON.stringify(v.changes)}` }));
}

describeCorpus("corpus: Jira's summary.json with one incident broken in every third snapshot", () => {
  const state = {} as { clean: RedlineDb; broken: RedlineDb; summary: ImportSummary; brokenAt: Set<string>; victim: string };
  beforeAll(async () => {
    const platform = getPlatform("statuspage-summary");
    if (!platform) throw new Error("no statuspage-summary platform");
    const { snapshots } = listSnapshotFolder(corpusPath(FOLDER));
    state.clean = await freshDatabase();
    await importSnapshots(state.clean, await ensureVendor(state.clean, { slug: "jira", platform: platform.name }), platform, snapshots);
    state.victim = chooseVictim(snapshots);
    const mutated = breakSnapshots(snapshots, state.victim);
    state.brokenAt = mutated.broken;
    state.broken = await freshDatabase();
    state.summary = await importSnapshots(state.broken, await ensureVendor(state.broken, { slug: "jira", platform: platform.name }), platform, mutated.snapshots);
  });

  it("breaks the incident in many snapshots, and records each of them as a good capture", () => {
    expect(state.brokenAt.size).toBeGreaterThanOrEqual(6);
    expect(state.summary.invalid).toBe(0);
    expect(state.summary.withWarnings).toBe(state.brokenAt.size);
  });

  it("leaves every other incident's history exactly as the unbroken snapshots give it", async () => {
    const others = async (db: RedlineDb) => (await history(db)).filter((r) => r.providerId !== state.victim).map((r) => `${r.providerId} ${r.line}`);
    expect(await others(state.broken)).toEqual(await others(state.clean));
    expect((await others(state.clean)).length).toBeGreaterThan(200);
  });

  it("never reports the broken incident gone when the unbroken snapshots do not", async () => {
    const gone = async (db: RedlineDb) =>
      (await history(db))
        .filter((r) => r.providerId === state.victim && /incident-left-feed|incident-deleted/.test(r.line))
        .map((r) => r.line.split(" ")[1]);
    expect(await gone(state.broken)).toEqual(await gone(state.clean));
  });

  it("keeps each broken capture's warnings, naming the path in the payload", async () => {
    const rows = await queryRows<{ observedAt: string; warnings: string }>(
      state.broken,
      "SELECT observed_at AS observedAt, warnings FROM captures WHERE warning_count > 0 ORDER BY observed_at",
    );
    expect(new Set(rows.map((r) => r.observedAt))).toEqual(state.brokenAt);
    const paths = rows.flatMap((r) => (JSON.parse(r.warnings) as Array<{ path: string }>).map((w) => w.path));
    expect(paths.some((p) => /^incidents\[\d+\]\.components\[0\]\.id$/.test(p))).toBe(true);
    expect(paths.some((p) => /^incidents\[\d+\]\.incident_updates\[0\]\.display_at$/.test(p))).toBe(true);
    expect(paths.some((p) => /^incidents\[\d+\]\.impact$/.test(p))).toBe(true);
  });
});
