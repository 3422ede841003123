import { deflateRawSync } from "node:zlib";
import { compress } from "zstd-napi";
import { describe, expect, it } from "vitest";
import { decompressSearchText } from "@/db/history/body-codec";
import json1 from "@/db/history/dictionaries/json-1.json";
import { compressWithDictionary, decompressWithDictionary, DictionaryError, isDictionaryCompressed, verifiedDictionary } from "@/db/history/json-dictionary";
import { convertVersionLayout, versionLayoutPending } from "@/db/history/layout/convert-versions";
import { packJson, unpackJson } from "@/db/history/packed-json";
import { archiveAcmeLifecycle } from "@/tests/support/acme-archive";
import { freshDatabase } from "@/tests/support/database";
import { testDatabaseDialect } from "@/tests/support/test-database-settings";

const state = JSON.stringify({
  incident: { vendor: "acme", id: "x1", kind: "incident", title: "Elevated error rates", status: "investigating", impact: "minor", updates: [{ id: "u1", status: "investigating", body: "We are investigating elevated error rates on the API. ✓" }] },
  presence: "listed",
});

describe("stored JSON compressed against a fixed dictionary", () => {
  it("round-trips text, and a record state comes out smaller than deflate alone made it", () => {
    const packed = packJson(state);
    expect(Buffer.isBuffer(packed) && isDictionaryCompressed(packed)).toBe(true);
    expect(unpackJson(packed)).toBe(state);
    expect((packed as Buffer).length).toBeLessThan(deflateRawSync(state, { level: 6 }).length);
  });

  it("still reads what was written before: deflated JSON, plain short JSON, search text compressed without a dictionary", () => {
    expect(unpackJson(deflateRawSync(state, { level: 6 }))).toBe(state);
    expect(unpackJson('{"a":1}')).toBe('{"a":1}');
    expect(decompressSearchText(compress(Buffer.from("title"))).toString()).toBe("title");
    expect(decompressSearchText(compressWithDictionary(Buffer.from("title"))).toString()).toBe("title");
  });

  it("refuses a dictionary whose bytes are not the ones recorded for it", () => {
    expect(verifiedDictionary(json1, 1).length).toBeGreaterThan(10_000);
    expect(() => verifiedDictionary({ ...json1, text: `${json1.text} ` }, 1)).toThrow(/dictionary 1 was altered/);
    expect(() => verifiedDictionary(json1, 2)).toThrow(DictionaryError);
  });

  it("says which dictionary a row needs when this version does not have it, and when a row is damaged", () => {
    const row = compressWithDictionary(Buffer.from(state));
    const unknown = Buffer.from(row);
    unknown[1] = 9;
    expect(() => decompressWithDictionary(unknown)).toThrow(/dictionary 9, which this version of Redline does not have/);
    const damaged = Buffer.from(row.subarray(0, row.length - 3));
    expect(() => decompressWithDictionary(damaged)).toThrow(DictionaryError);
  });
});

// Deflated rows are found only in SQLite files of an earlier Redline, and migrate converts them there alone.
describe.skipIf(testDatabaseDialect === "postgres")("migrate's conversion of record states deflated by an earlier Redline (SQLite)", () => {
  it("recompresses them against the dictionary, the texts unchanged, and then has nothing left to do", async () => {
    const db = await freshDatabase();
    await archiveAcmeLifecycle(db);
    const sqlite = db.$client;
    const full = () => sqlite.prepare<[], { id: number; state: Buffer | string }>("SELECT id, state FROM incident_states WHERE state IS NOT NULL ORDER BY id").all();
    const texts = full().map((r) => unpackJson(r.state));
    const deflate = sqlite.prepare<[Buffer, number]>("UPDATE incident_states SET state = ? WHERE id = ?");
    for (const [i, row] of full().entries()) deflate.run(deflateRawSync(texts[i] ?? "", { level: 6 }), row.id);
    expect(full().every((r) => Buffer.isBuffer(r.state) && !isDictionaryCompressed(r.state))).toBe(true);
    expect(versionLayoutPending(sqlite)).toBe(true);

    expect((await convertVersionLayout(db)).statesRewritten).toBe(texts.length);
    expect(full().every((r) => typeof r.state === "string" || isDictionaryCompressed(r.state))).toBe(true);
    expect(full().map((r) => unpackJson(r.state))).toEqual(texts);
    expect(versionLayoutPending(sqlite)).toBe(false);
  });
});
