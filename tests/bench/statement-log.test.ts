import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { countShapes, readStatementLog, statementShape } from "@/bench/statement-log";

const LOG = [
  "2026-12-07 19:10:00.100 UTC [41] LOG:  checkpoint starting: time",
  "2026-12-07 19:10:00.101 UTC [42] LOG:  statement: BEGIN",
  "2026-12-07 19:10:00.102 UTC [42] LOG:  execute r0123456789abcdef: SELECT id FROM captures",
  "\tWHERE vendor_id = $1 AND source = $2",
  "2026-12-07 19:10:00.103 UTC [42] DETAIL:  parameters: $1 = '7', $2 = 'summary.json'",
  "2026-12-07 19:10:00.104 UTC [42] LOG:  execute <unnamed>: INSERT INTO t (a, b) VALUES ($1, $2), ($3, $4), ($5, $6)",
  "2026-12-07 19:10:00.105 UTC [42] ERROR:  duplicate key value violates unique constraint \"t_pkey\"",
  "2026-12-07 19:10:00.106 UTC [42] STATEMENT:  INSERT INTO t (a, b) VALUES ($1, $2)",
  "2026-12-07 19:10:00.107 UTC [42] LOG:  statement: COMMIT",
  "",
].join("\n");

let dir: string | undefined;
afterEach(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function writeLog(text: string): string {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "redline-statement-log-"));
  const file = path.join(dir, "server.log");
  fs.writeFileSync(file, text);
  return file;
}

describe("readStatementLog", () => {
  it("counts each executed or simple statement once, multi-line ones whole, and neither parameters, errors' echoes nor other messages", () => {
    const file = writeLog(LOG);
    const { statements, errors } = readStatementLog(file, 0, fs.statSync(file).size);
    expect(statements.map((s) => [s.protocol, s.sql])).toEqual([
      ["statement", "BEGIN"],
      ["execute", "SELECT id FROM captures\n\tWHERE vendor_id = $1 AND source = $2"],
      ["execute", "INSERT INTO t (a, b) VALUES ($1, $2), ($3, $4), ($5, $6)"],
      ["statement", "COMMIT"],
    ]);
    expect(errors).toEqual(['duplicate key value violates unique constraint "t_pkey"']);
  });

  it("places each statement at its byte offset, so a stretch between two log sizes holds only its own", () => {
    const file = writeLog(LOG);
    const all = readStatementLog(file, 0, fs.statSync(file).size).statements;
    const insert = all[2];
    if (!insert) throw new Error("no third statement");
    expect(fs.readFileSync(file).subarray(insert.offset).toString("utf8")).toMatch(/^2026-12-07 19:10:00.104 UTC \[42\] LOG: {2}execute <unnamed>: INSERT/);
    expect(readStatementLog(file, insert.offset, fs.statSync(file).size).statements.map((s) => s.sql)).toEqual([insert.sql, "COMMIT"]);
  });
});

describe("statementShape", () => {
  it("groups statements that differ only in literals, parameters and the number of rows or list items", () => {
    expect(statementShape("INSERT INTO t (a, b) VALUES ($1, $2), ($3, $4)")).toBe(statementShape("INSERT INTO t (a, b) VALUES ($1, $2)"));
    expect(statementShape("SELECT x FROM t WHERE id IN (1, 2, 3) AND s = 'it''s' LIMIT 10")).toBe("SELECT x FROM t WHERE id IN (?, …) AND s = ? LIMIT ?");
    expect(statementShape("SELECT r2 FROM t2 -- why\n WHERE  a = $12")).toBe("SELECT r2 FROM t2 WHERE a = ?");
  });

  it("keeps statements on different tables apart and counts the most frequent first", () => {
    const statements = ["DELETE FROM a WHERE id = $1", "DELETE FROM b WHERE id = $1", "DELETE FROM a WHERE id = $1"].map((sql) => ({ offset: 0, protocol: "execute" as const, sql }));
    expect(countShapes(statements)).toEqual([
      { shape: "DELETE FROM a WHERE id = ?", count: 2 },
      { shape: "DELETE FROM b WHERE id = ?", count: 1 },
    ]);
  });
});
