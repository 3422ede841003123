import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { RedlineDb } from "@/db/client";
import { rewindHistory } from "@/db/history/rewind";
import { convertVersionLayout, versionLayoutPending } from "@/db/history/layout/convert-versions";
import { isZstdFrame } from "@/db/history/json-deltas";
import { packJson, unpackChanges } from "@/db/history/packed-json";
import { loadVendorExport } from "@/db/queries/incident-history";
import { isStateCheckpoint, replayStateRows, STATE_CHECKPOINT } from "@/db/history/state-log";
import { transact } from "@/db/driver/transaction";
import { isVersionCheckpoint, readVersionState } from "@/db/history/version-states";
import { ensureVendor } from "@/db/settings/vendors";
import { ingestSnapshot } from "@/scrapers/ingest/ingest-snapshot";
import { freshDatabase, queryRow, queryRows } from "@/tests/support/database";
import { makeIncident, makeUpdate } from "@/tests/support/incidents";
import { unpackVersionContent } from "@/db/history/version-content";
import { writePatchLayout } from "@/tests/support/patch-layout";
import { testDatabaseDialect } from "@/tests/support/test-database-settings";
import { makeTestPlatform, snapshotBody } from "@/tests/support/test-platform";

/** What the write path was handed, before it chose what to keep. */
const derived = vi.hoisted(() => ({ versions: new Map<string, string>(), states: new Map<string, string>(), chained: true }));

vi.mock("@/db/history/version-states", async (importOriginal) => {
  const actual = await importOriginal<typeof import("@/db/history/version-states")>();
  return {
    ...actual,
    // `chained`: as if no record were logged that projects to the version (as in databases written
    // before), so versions keep their own chain of copies and deltas.
    versionStorage: (db: Parameters<typeof actual.versionStorage>[0], incidentId: number, seq: number, snapshot: string, record: string) => {
      derived.versions.set(`${incidentId}:${seq}`, snapshot);
      return actual.versionStorage(db, incidentId, seq, snapshot, derived.chained ? "{}" : record);
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

/** One incident edited at every capture (a new update each time), `count` captures from minute `from`. */
async function archive(db: RedlineDb, from: number, count: number): Promise<number> {
  const platform = makeTestPlatform({ kind: "active" });
  const vendor = await ensureVendor(db, { slug: "acme", name: "Acme", platform: platform.name });
  for (let i = from; i < from + count; i += 1) {
    const updates = Array.from({ length: i + 1 }, (_, u) => makeUpdate({ id: `u${u}`, body: `Update ${u}: we are still looking into elevated API errors in region ${u % 7}.` }));
    const body = snapshotBody([makeIncident({ title: `Elevated API errors (${i})`, updates })]);
    const observedAt = new Date(Date.UTC(2026, 2, 1, 10, i)).toISOString();
    await ingestSnapshot(db, { vendor, platform, source: "feed.json", observedAt, body }, () => platform);
  }
  return vendor.id;
}

interface Form {
  versions: number;
  textPatches: number;
  /** Versions that keep nothing of their own: their logged record projects to them. */
  projected: number;
}

/** Every version and record state read one by one and replayed whole equals what derivation produced, and (checkForm) is full only where it should be. */
async function checkEveryRow(db: RedlineDb, checkForm = true): Promise<Form> {
  const { packed } = db.connection.dialect.history;
  // Packed columns as written: on PostgreSQL bytes are text again unless a dictionary or zstd frame.
  const versions = (
    await queryRows<{ incidentId: number; seq: number; snapshot: string | Buffer | null; patch: string | Buffer | null; latest: number }>(
      db,
      `SELECT incident_id AS incidentId, seq, snapshot, patch, seq = (SELECT max(seq) FROM incident_versions w WHERE w.incident_id = v.incident_id) AS latest
     FROM incident_versions v ORDER BY incident_id, seq`,
    )
  ).map((v) => packed.row(v, ["snapshot", "patch"]));
  let textPatches = 0;
  let projected = 0;
  for (const v of versions) {
    expect(JSON.stringify(await readVersionState(db, v.incidentId, v.seq)), `version ${v.seq}`).toBe(derived.versions.get(`${v.incidentId}:${v.seq}`));
    if (typeof v.patch === "string") textPatches += 1;
    else if (v.snapshot === null && v.patch === null) projected += 1;
    else if (checkForm) expect(v.snapshot !== null, `version ${v.seq} full`).toBe(v.latest === 1 || isVersionCheckpoint(v.seq));
  }
  const states = (
    await queryRows<{ id: number; incidentId: number; captureId: number; state: Buffer | string | null; patch: Buffer | string | null; depth: number }>(
      db,
      "SELECT id, incident_id AS incidentId, capture_id AS captureId, state, patch, depth FROM incident_states ORDER BY incident_id, id",
    )
  ).map((row) => packed.row(row, ["state", "patch"]));
  const rebuilt = replayStateRows(states);
  states.forEach((s, i) => {
    expect(rebuilt[i], `state ${s.id}`).toBe(derived.states.get(`${s.incidentId}:${s.captureId}`));
    if (typeof s.patch === "string") textPatches += 1;
    else if (checkForm) expect(s.state !== null, `state ${s.id} full`).toBe(isStateCheckpoint(s.depth) || i === states.length - 1);
  });
  return { versions: versions.length, textPatches, projected };
}

async function rewindTo(db: RedlineDb, vendorId: number, keep: number): Promise<void> {
  const from = await queryRow<{ observedAt: string; source: string; hash: string }>(
    db,
    "SELECT observed_at AS observedAt, source, hash FROM captures WHERE vendor_id = ? ORDER BY observed_at LIMIT 1 OFFSET ?",
    vendorId,
    keep,
  );
  if (!from) throw new Error(`no capture ${keep}`);
  await transact(db, () => rewindHistory(db, vendorId, from));
}

describe("versions and record states as reverse zstd deltas", () => {
  it("read every version and state as derived, across checkpoints, holding zstd deltas between full rows", async () => {
    const db = await freshDatabase();
    await archive(db, 0, 40);
    expect(await checkEveryRow(db)).toEqual({ versions: 40, textPatches: 0, projected: 0 });
    const deltas = await queryRows<{ patch: Buffer }>(db, "SELECT patch FROM incident_versions WHERE snapshot IS NULL");
    // Full: versions 16 and 32 (checkpoints) and 40 (the latest); the first is a delta like any other.
    expect(deltas).toHaveLength(40 - 3);
    for (const d of deltas) expect(isZstdFrame(d.patch)).toBe(true);
    const fullStates = (await queryRow<{ n: number }>(db, "SELECT count(*) AS n FROM incident_states WHERE state IS NOT NULL"))?.n;
    expect(fullStates).toBe(Math.floor(40 / STATE_CHECKPOINT) + 1);
  });

  it("keep the new latest full and every row readable after deleting rows off the end", async () => {
    const db = await freshDatabase();
    const vendorId = await archive(db, 0, 40);
    // The new latest: mid-chain, just past a checkpoint, the checkpoint itself, and the row before one.
    for (const keep of [30, 17, 16, 15]) {
      await rewindTo(db, vendorId, keep);
      expect(await checkEveryRow(db)).toEqual({ versions: keep, textPatches: 0, projected: 0 });
    }
  });

  it.skipIf(testDatabaseDialect === "postgres")("still read rows written before (forward JSON patches, deflated copies), appended to, and converted by migrate (SQLite)", async () => {
    const db = await freshDatabase();
    await archive(db, 0, 37);
    const exported = JSON.stringify(await loadVendorExport(db, "acme"));
    await writePatchLayout(db);
    expect((await checkEveryRow(db, false)).textPatches).toBeGreaterThan(60);
    expect(JSON.stringify(await loadVendorExport(db, "acme"))).toBe(exported);
    // New captures after legacy rows: a chain of both forms.
    await archive(db, 37, 6);
    const mixed = await checkEveryRow(db, false);
    expect(mixed.versions).toBe(43);
    expect(mixed.textPatches).toBeGreaterThan(60);
    const withNew = JSON.stringify(await loadVendorExport(db, "acme"));
    expect(versionLayoutPending(db.$client)).toBe(true);
    const converted = await convertVersionLayout(db);
    expect(converted.versionsRewritten).toBeGreaterThan(30);
    // Every record was logged with its version: conversion leaves no version a copy of its own.
    expect(await checkEveryRow(db)).toEqual({ versions: 43, textPatches: 0, projected: 43 });
    expect(versionLayoutPending(db.$client)).toBe(false);
    expect(await convertVersionLayout(db)).toMatchObject({ versionsRewritten: 0, statesRewritten: 0 });
    expect(JSON.stringify(await loadVendorExport(db, "acme"))).toBe(withNew);
  });
});

describe("a version's changes", () => {
  it("are deflated from 256 characters, read back the same whatever the stored form", () => {
    const short = JSON.stringify([{ field: "title", kind: "changed", before: "a", after: "b" }]);
    const long = JSON.stringify([{ field: "update", kind: "added", before: null, after: { body: "x".repeat(400) } }]);
    expect(packJson(short)).toBe(short);
    const packed = packJson(long);
    expect(Buffer.isBuffer(packed)).toBe(true);
    expect(packed.length).toBeLessThan(long.length / 4);
    expect(unpackChanges(packed)).toEqual(JSON.parse(long));
    expect(unpackChanges(long)).toEqual(JSON.parse(long));
    expect(unpackChanges(short)).toEqual(JSON.parse(short));
  });

  it("are stored in the version's compressed content by the write path and read back by every export", async () => {
    const db = await freshDatabase();
    await archive(db, 0, 5);
    const rows = await queryRows<{ content: Buffer }>(db, "SELECT content FROM incident_versions ORDER BY seq");
    const exported = (await loadVendorExport(db, "acme"))?.incidents[0]?.versions.map((v) => v.changes);
    expect(exported).toEqual(rows.map((r) => unpackVersionContent(r.content).changes));
    expect(rows.every((r) => r.content.length < JSON.stringify(unpackVersionContent(r.content)).length)).toBe(true);
    expect(JSON.stringify(exported)).toContain("Update 4: we are still looking");
  });
});

describe("versions projected from the records logged with them", () => {
  beforeEach(() => {
    derived.chained = false;
  });
  afterEach(() => {
    derived.chained = true;
  });

  it("keep nothing of their own, read as derived, and stay readable after rows come off the end", async () => {
    const db = await freshDatabase();
    const vendorId = await archive(db, 0, 20);
    expect(await checkEveryRow(db)).toEqual({ versions: 20, textPatches: 0, projected: 20 });
    const kept = (await queryRow<{ n: number }>(db, "SELECT count(*) AS n FROM incident_versions WHERE snapshot IS NOT NULL OR patch IS NOT NULL"))?.n;
    expect(kept).toBe(0);
    for (const keep of [17, 16, 3]) {
      await rewindTo(db, vendorId, keep);
      expect(await checkEveryRow(db)).toEqual({ versions: keep, textPatches: 0, projected: keep });
    }
  });

  /** 18 versions chained as databases written before kept them, then 5 projected from their records. */
  async function chainedThenProjected(db: RedlineDb): Promise<void> {
    derived.chained = true;
    await archive(db, 0, 18);
    derived.chained = false;
    await archive(db, 18, 5);
  }

  it("follow a chain of copies written before, which still reads, and export the same", async () => {
    const db = await freshDatabase();
    await chainedThenProjected(db);
    expect(await checkEveryRow(db, false)).toMatchObject({ versions: 23, projected: 5 });
    // The last chained version keeps its full copy: nothing after it is a copy to be a delta against.
    const full = (await queryRows<{ seq: number }>(db, "SELECT seq FROM incident_versions WHERE snapshot IS NOT NULL ORDER BY seq")).map((r) => r.seq);
    expect(full).toEqual([16, 18]);
  });

  it.skipIf(testDatabaseDialect === "postgres")("convert such a chain by migrate into versions projected from their records, exporting the same (SQLite)", async () => {
    const db = await freshDatabase();
    await chainedThenProjected(db);
    const exported = JSON.stringify(await loadVendorExport(db, "acme"));
    await convertVersionLayout(db);
    expect(await checkEveryRow(db)).toEqual({ versions: 23, textPatches: 0, projected: 23 });
    expect(JSON.stringify(await loadVendorExport(db, "acme"))).toBe(exported);
  });
});
