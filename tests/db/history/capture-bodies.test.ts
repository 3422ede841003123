import type { RedlineDb } from "@/db/client";
import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { encodeFull } from "@/db/history/body-codec";
import { bodyReader, MAX_CHAIN_DEPTH, restoreBody, restoreCaptureBody } from "@/db/history/capture-bodies";
import { insertCapture } from "@/db/record/record-capture";
import { ensureVendor, removeVendor } from "@/db/settings/vendors";
import { describeCorpus } from "@/tests/support/corpus";
import { bodyRows, importCorpusFolder, restoredHashes } from "@/tests/support/body-store";
import { countRows, freshDatabase, queryRow, runSql } from "@/tests/support/database";

const sha = (body: Uint8Array) => createHash("sha256").update(body).digest("hex");

/** A stored body's row matched by its hex hash. */
const BY_HASH = { sqlite: "hash = unhex(?)", postgres: "hash = decode(?, 'hex')" };

/** Overwrite the stored bytes of the body of `hash`. */
const setStoredBody = (db: RedlineDb, body: Buffer, hash: string) =>
  runSql(db, { sqlite: `UPDATE capture_bodies SET body = ? WHERE ${BY_HASH.sqlite}`, postgres: `UPDATE capture_bodies SET body = ? WHERE ${BY_HASH.postgres}` }, body, hash);

/** A live source's bodies as a poller records them: one incident list growing by an update at a time. */
function pollHistory(polls: number): Buffer[] {
  const updates: Array<{ id: string; body: string }> = [];
  const bodies: Buffer[] = [];
  for (let i = 0; i < polls; i += 1) {
    updates.push({ id: `u${i}`, body: `Update ${i}: we are still looking into elevated error rates in region ${i % 7}.` });
    bodies.push(Buffer.from(JSON.stringify({ page: { id: "acme" }, incidents: [{ id: "inc1", name: "Errors", incident_updates: updates }] }, null, 2)));
  }
  return bodies;
}

async function recordPolls(db: RedlineDb, vendorId: number, source: string, bodies: readonly Buffer[]): Promise<number[]> {
  const ids: number[] = [];
  for (const [i, body] of bodies.entries()) {
    const id = await insertCapture(db, {
      vendorId, source, platform: "statuspage-summary", observedAt: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(), hash: sha(body), body,
      outcome: "ok", error: null, incidentCount: 1, warnings: [],
    });
    if (id === null) throw new Error(`poll ${i} was a duplicate`);
    ids.push(id);
  }
  return ids;
}

describe("raw bodies stored as deltas", () => {
  it("restores every capture of a poll history to its recorded hash, with chains bounded in length", async () => {
    const db = await freshDatabase();
    const vendor = await ensureVendor(db, { slug: "acme", platform: "statuspage-summary" });
    const bodies = pollHistory(80);
    // The same body polled again, then an older one served again: each is stored once.
    const ids = await recordPolls(db, vendor.id, "https://status.acme.test/api/v2/summary.json", [...bodies, bodies[79] as Buffer, bodies[3] as Buffer]);
    expect(await countRows(db, "capture_bodies")).toBe(80);
    for (const [i, id] of ids.entries()) expect(sha((await restoreCaptureBody(db, id)) ?? Buffer.alloc(0))).toBe(sha(i < 80 ? (bodies[i] as Buffer) : i === 80 ? (bodies[79] as Buffer) : (bodies[3] as Buffer)));
    const rows = await bodyRows(db);
    expect(Math.max(...rows.map((r) => r.depth))).toBe(MAX_CHAIN_DEPTH);
    // Past the bound, a new stretch starts with a delta against the last stretch's start, not a whole body.
    expect(rows.filter((r) => r.encoding === "zstd").map((r) => r.hash)).toEqual([sha(bodies[0] as Buffer)]);
    const stretchStarts = rows.filter((r) => r.encoding === "zstd-delta" && r.run === 0);
    expect(stretchStarts.map((r) => r.depth)).toEqual([1, 2]);
    const stored = rows.reduce((n, r) => n + r.bytes, 0);
    const gzipAlone = bodies.reduce((n, b) => n + gzipSync(b, { level: 1 }).byteLength, 0);
    expect(stored * 5).toBeLessThan(gzipAlone);
  });

  it("stores a source's first body as a delta against the vendor's last, as with one endpoint per incident", async () => {
    const db = await freshDatabase();
    const vendor = await ensureVendor(db, { slug: "acme", platform: "statuspage-incident" });
    const [first, second] = pollHistory(2) as [Buffer, Buffer];
    await recordPolls(db, vendor.id, "https://status.acme.test/api/v2/incidents/one.json", [first]);
    const [id] = await recordPolls(db, vendor.id, "https://status.acme.test/api/v2/incidents/two.json", [second]);
    const row = await queryRow(
      db,
      {
        sqlite: "SELECT encoding, (SELECT lower(hex(p.hash)) FROM capture_bodies p WHERE p.id = b.base_id) AS baseHash FROM capture_bodies b WHERE hash = unhex(?)",
        postgres: "SELECT encoding, (SELECT encode(p.hash, 'hex') FROM capture_bodies p WHERE p.id = b.base_id) AS baseHash FROM capture_bodies b WHERE hash = decode(?, 'hex')",
      },
      sha(second),
    );
    expect(row).toEqual({ encoding: "zstd-delta", baseHash: sha(first) });
    expect((await restoreCaptureBody(db, id as number))?.equals(second)).toBe(true);
  });

  it("reads a run of bodies through a reader as it restores them one by one", async () => {
    const db = await freshDatabase();
    const vendor = await ensureVendor(db, { slug: "acme", platform: "statuspage-summary" });
    const bodies = pollHistory(40);
    await recordPolls(db, vendor.id, "https://status.acme.test/api/v2/summary.json", bodies);
    const read = bodyReader(db);
    for (const body of bodies) expect((await read(sha(body))).equals(body)).toBe(true);
  });

  it("refuses a damaged delta row with a store error naming the capture, never wrong bytes", async () => {
    const db = await freshDatabase();
    const vendor = await ensureVendor(db, { slug: "acme", platform: "statuspage-summary" });
    const bodies = pollHistory(10);
    const ids = await recordPolls(db, vendor.id, "https://status.acme.test/api/v2/summary.json", bodies);
    const victim = ids[5] as number;
    const hash = sha(bodies[5] as Buffer);
    const row = await queryRow<{ body: Buffer; encoding: string }>(
      db,
      { sqlite: `SELECT body, encoding FROM capture_bodies WHERE ${BY_HASH.sqlite}`, postgres: `SELECT body, encoding FROM capture_bodies WHERE ${BY_HASH.postgres}` },
      hash,
    );
    expect(row?.encoding).toBe("zstd-delta");
    const flipped = Buffer.from(row?.body ?? Buffer.alloc(0));
    flipped[flipped.length - 6] = (flipped[flipped.length - 6] ?? 0) ^ 0xff;
    await setStoredBody(db, flipped, hash);
    await expect(restoreCaptureBody(db, victim)).rejects.toThrow(new RegExp(`^store: raw body ${hash} \\(of capture ${victim}\\)`));
    // A later body whose chain runs through the damaged one is refused too.
    await expect(restoreCaptureBody(db, ids[6] as number)).rejects.toThrow(/^store: raw body .* capture/);
    // Bodies before it are untouched.
    expect((await restoreCaptureBody(db, ids[4] as number))?.equals(bodies[4] as Buffer)).toBe(true);
  });

  it("refuses a delta whose base decodes to other bytes, by its hash", async () => {
    const db = await freshDatabase();
    const vendor = await ensureVendor(db, { slug: "acme", platform: "statuspage-summary" });
    const bodies = pollHistory(4);
    const ids = await recordPolls(db, vendor.id, "https://status.acme.test/api/v2/summary.json", bodies);
    // The chain's whole body replaced by a valid one of other content: the deltas after it decode to wrong bytes.
    await setStoredBody(db, encodeFull(Buffer.from('{"other":true}')), sha(bodies[0] as Buffer));
    await expect(restoreCaptureBody(db, ids[2] as number)).rejects.toThrow(/^store: raw body [0-9a-f]{64} \(of capture \d+\) (restored to .* not its own|cannot be decoded)/);
    await expect(restoreCaptureBody(db, ids[0] as number)).rejects.toThrow(new RegExp(`of capture ${ids[0]}\\) restored to 14 bytes`));
  });
});

describe("vendors remove --purge", () => {
  it("keeps every raw body when a vendor is only removed", async () => {
    const db = await freshDatabase();
    const vendor = await ensureVendor(db, { slug: "acme", platform: "statuspage-summary" });
    await recordPolls(db, vendor.id, "https://status.acme.test/api/v2/summary.json", pollHistory(5));
    await removeVendor(db, "acme", false);
    expect(await countRows(db, "capture_bodies")).toBe(5);
  });

  it("deletes the vendor's raw bodies and keeps, restorable, those another vendor shares", async () => {
    const db = await freshDatabase();
    const a = await ensureVendor(db, { slug: "acme", platform: "statuspage-summary" });
    const b = await ensureVendor(db, { slug: "bolt", platform: "statuspage-summary" });
    const bodies = pollHistory(20);
    await recordPolls(db, a.id, "https://status.acme.test/api/v2/summary.json", bodies);
    // Bolt's page served three of Acme's bodies (one mirrored status page): stored once, in Acme's chain.
    await recordPolls(db, b.id, "https://status.bolt.test/api/v2/summary.json", bodies.slice(10, 13));
    expect(await countRows(db, "capture_bodies")).toBe(20);
    expect((await removeVendor(db, "acme", true)).bodies).toEqual({ dropped: 17, rebased: 1 });
    expect(await countRows(db, "captures")).toBe(3);
    expect((await bodyRows(db)).map((r) => r.hash).sort()).toEqual(bodies.slice(10, 13).map(sha).sort());
    // The first of them was a delta against a body now deleted: it is stored whole.
    expect((await bodyRows(db, sha(bodies[10] as Buffer)))[0]?.encoding).toBe("zstd");
    for (const r of await restoredHashes(db)) expect(r.restored).toBe(r.recorded);
    expect(await queryRow(db, "SELECT count(*) AS n FROM capture_bodies WHERE vendor_id IS NOT NULL")).toEqual({ n: 0 });
  });
});

describeCorpus("raw bodies of real histories", () => {
  for (const folder of ["statuspage-summary-github-2025", "gcp-incidents"]) {
    it(`restores every capture of ${folder}, imported, to its recorded hash, in less space than gzip alone`, async () => {
      const db = await freshDatabase();
      await importCorpusFolder(db, folder);
      const restored = await restoredHashes(db);
      expect(restored.length).toBeGreaterThan(90);
      for (const r of restored) expect(r.restored, `capture ${r.id}`).toBe(r.recorded);
      const rows = await bodyRows(db);
      expect(rows.some((r) => r.encoding === "zstd-delta")).toBe(true);
      const stored = rows.reduce((n, r) => n + r.bytes, 0);
      let gzipAlone = 0;
      for (const r of rows) gzipAlone += gzipSync(await restoreBody(db, r.hash), { level: 1 }).byteLength;
      expect(stored * 4).toBeLessThan(gzipAlone);
    });
  }
});
