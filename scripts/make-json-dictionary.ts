/**
 * Writes a new compression dictionary for stored JSON (db/history/json-dictionary.ts) from the synthetic
 * benchmark archive (bench/seed-large.ts; never vendor data): samples of its search texts, version
 * changes and record states, in that order. A dictionary in use is never rewritten: this makes the
 * next one, which db/history/json-dictionary.ts then lists under a new number.
 *   npx tsx scripts/make-json-dictionary.ts <archive.db> <number>
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { decompressSearchText } from "@/db/history/body-codec";
import { type PackedJson, unpackChanges, unpackJson } from "@/db/history/packed-json";

const PARTS: ReadonlyArray<{ bytes: number; sql: string; text: (value: unknown) => string }> = [
  { bytes: 8_000, sql: "SELECT body AS v FROM incident_search_text WHERE incident_id % 401 = 1", text: (v) => decompressSearchText(v as Buffer).toString("utf8") },
  { bytes: 16_000, sql: "SELECT changes AS v FROM incident_versions WHERE id % 101 = 7", text: (v) => JSON.stringify(unpackChanges(v as PackedJson)) },
  { bytes: 40_000, sql: "SELECT state AS v FROM incident_states WHERE state IS NOT NULL AND id % 211 = 5", text: (v) => unpackJson(v as PackedJson) },
];

function main(): void {
  const [file, number] = process.argv.slice(2);
  if (!file || !number || !/^\d+$/.test(number)) throw new Error("usage: npx tsx scripts/make-json-dictionary.ts <archive.db> <number>");
  const db = new Database(file, { readonly: true, fileMustExist: true });
  const pieces: string[] = [];
  for (const part of PARTS) {
    let taken = 0;
    for (const row of db.prepare<[], { v: unknown }>(part.sql).iterate()) {
      if (taken >= part.bytes) break;
      const text = part.text(row.v);
      pieces.push(text);
      taken += Buffer.byteLength(text);
    }
  }
  db.close();
  const text = pieces.join("\n");
  const sha256 = createHash("sha256").update(text).digest("hex");
  const out = path.resolve(__dirname, "..", "db", "history", "dictionaries", `json-${number}.json`);
  fs.writeFileSync(out, `${JSON.stringify({ number: Number(number), sha256, text })}\n`);
  console.log(`${out}: ${Buffer.byteLength(text)} bytes, sha256 ${sha256}`);
}

main();
