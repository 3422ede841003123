import { beforeAll, describe, expect, it, vi } from "vitest";
import type { RedlineDb } from "@/db/client";
import { isStateCheckpoint, replayStateRows, STATE_CHECKPOINT } from "@/db/history/state-log";
import { readVersionState } from "@/db/history/version-states";
import { transact } from "@/db/driver/transaction";
import { ensureVendor } from "@/db/settings/vendors";
import { CHANGE_KIND_CODES } from "@/lib/change-kinds";
import { importSnapshots, listSnapshotFolder } from "@/scrapers/ingest/import-snapshots";
import { getPlatform } from "@/scrapers/platforms";
import { archiveAcmeLifecycle } from "@/tests/support/acme-archive";
import { corpusPath, describeCorpus } from "@/tests/support/corpus";
import { freshDatabase, queryRow, queryRows } from "@/tests/support/database";

/** What the write path was handed, before it chose what to keep: the derive stage's output, as JSON. */
const derived = vi.hoisted(() => ({ versions: new Map<string, string>(), states: new Map<string, string>() }));

vi.mock("@/db/history/version-states", async (importOriginal) => {
  const actual = await importOriginal<typeof import("@/db/history/version-states")>();
  return {
    ...actual,
    versionStorage: (db: Parameters<typeof actual.versionStorage>[0], incidentId: number, seq: number, snapshot: string, record: string) => {
      derived.versions.set(`${incidentId}:${seq}`, snapshot);
      return actual.versionStorage(db, incidentId, seq, snapshot, record);
    },
  };
});
vi.mock("@/db/history/state-log", async (importOriginal) => {
  const actual = await importOriginal<typeof import("@/db/history/state-log")>();
  return {
    ...actual,
    appendStates: async (db: Parameters<typeof actual.appendStates>[0], entries: Parameters<typeof actual.appendStates>[1]) => {
      for (const { incidentId, captureId, state } of entries) derived.states.set(`${incidentId}:${captureId}`, state);
      await actual.appendStates(db, entries);
    },
  };
});

interface Stored {
  versions: number;
  fullSnapshots: number;
  states: number;
  fullStates: number;
}

/** Every stored version and record state, rebuilt, against what derivation produced. */
async function checkEveryState(db: RedlineDb): Promise<Stored> {
  const versions = await queryRows<{ incidentId: number; seq: number; full: number; projected: number }>(
    db,
    "SELECT incident_id AS incidentId, seq, snapshot IS NOT NULL AS full, snapshot IS NULL AND patch IS NULL AS projected FROM incident_versions v",
  );
  for (const v of versions) {
    const expected = derived.versions.get(`${v.incidentId}:${v.seq}`);
    expect(expected, `version ${v.incidentId}:${v.seq} was derived`).toBeDefined();
    expect(JSON.stringify(await readVersionState(db, v.incidentId, v.seq))).toBe(expected);
    // Derivation's versions are their records as logged: none keeps a copy of its own.
    expect(v.projected, `version ${v.incidentId}:${v.seq} is its logged record`).toBe(1);
  }
  // The packed columns as written: bytes on PostgreSQL are text again unless a dictionary or zstd frame.
  const states = (
    await queryRows<{ incidentId: number; captureId: number; state: string | Buffer | null; patch: string | Buffer | null; depth: number }>(
      db,
      "SELECT incident_id AS incidentId, capture_id AS captureId, state, patch, depth FROM incident_states ORDER BY incident_id, id",
    )
  ).map((row) => db.connection.dialect.history.packed.row(row, ["state", "patch"]));
  const byIncident = new Map<number, typeof states>();
  for (const s of states) byIncident.set(s.incidentId, [...(byIncident.get(s.incidentId) ?? []), s]);
  for (const rows of byIncident.values()) {
    const rebuilt = replayStateRows(rows);
    rows.forEach((row, i) => {
      expect(rebuilt[i]).toBe(derived.states.get(`${row.incidentId}:${row.captureId}`));
      expect(row.depth).toBeLessThan(STATE_CHECKPOINT);
      expect(row.state !== null).toBe(isStateCheckpoint(row.depth) || i === rows.length - 1);
    });
  }
  return { versions: versions.length, fullSnapshots: versions.filter((v) => v.full === 1).length, states: states.length, fullStates: states.filter((s) => s.state !== null).length };
}

async function importFolder(db: RedlineDb, folder: string, slug: string, platformName: string): Promise<void> {
  const platform = getPlatform(platformName);
  if (!platform) throw new Error(`no platform ${platformName}`);
  await importSnapshots(db, await ensureVendor(db, { slug, platform: platform.name }), platform, listSnapshotFolder(corpusPath(folder)).snapshots);
}

describe("versions and record states kept as patches", () => {
  it("rebuild exactly what derivation produced for a lifecycle with a rewrite, a deletion and an edited postmortem", async () => {
    const db = await freshDatabase();
    await archiveAcmeLifecycle(db);
    const stored = await checkEveryState(db);
    expect(stored.versions).toBeGreaterThan(10);
    const kinds = (await queryRows<{ kind: number }>(db, "SELECT DISTINCT kind FROM version_kinds")).map((r) => CHANGE_KIND_CODES[r.kind]);
    expect(kinds).toEqual(expect.arrayContaining(["incident-deleted", "postmortem-published", "postmortem-edited"]));
  });

  it("keeps the latest version full after a late capture rewinds the history", async () => {
    const db = await freshDatabase();
    const vendor = await archiveAcmeLifecycle(db);
    const before = await checkEveryState(db);
    // Rewind past the last four captures, as a late capture does, then check what is left.
    const { rewindHistory } = await import("@/db/history/rewind");
    const from = await queryRow<{ observedAt: string; source: string; hash: string }>(
      db,
      "SELECT observed_at AS observedAt, source, hash FROM captures WHERE vendor_id = ? ORDER BY observed_at LIMIT 1 OFFSET 3",
      vendor.id,
    );
    if (!from) throw new Error("no capture to rewind from");
    await transact(db, () => rewindHistory(db, vendor.id, from));
    const after = await checkEveryState(db);
    expect(after.versions).toBeLessThan(before.versions);
  });
});

describeCorpus("versions and record states of real imports", () => {
  let db: RedlineDb;
  beforeAll(async () => {
    db = await freshDatabase();
    await importFolder(db, "statuspage-summary-github-2025", "github", "statuspage-summary");
    await importFolder(db, "atom-github-history", "github-atom", "statuspage-atom");
    await importFolder(db, "gcp-incidents", "google-cloud", "gcp");
  }, 120_000);

  it("rebuild, version by version and state by state, exactly what derivation produced, version from its logged record, state from at most one full copy in sixteen", async () => {
    const stored = await checkEveryState(db);
    expect(stored.versions).toBeGreaterThan(1000);
    expect(stored.fullSnapshots).toBe(0);
    expect(stored.fullStates).toBeLessThan(stored.states);
  });
});
