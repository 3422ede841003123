/**
 * Statements in a PostgreSQL server log written to a file (stderr, no logging collector) with
 * `log_statement=all` and the default `log_line_prefix` ('%m [%p] '), and the shape of each:
 * its SQL with literals and parameters as `?`, so repeated round trips group together.
 */
import fs from "node:fs";

export interface LoggedStatement {
  /** Byte offset of its first line in the log, to place it between two observed log sizes. */
  offset: number;
  /** `execute <name>` for the extended protocol (prepared or unnamed), `statement` for a simple query. */
  protocol: "execute" | "statement";
  sql: string;
}

export interface StatementLog {
  statements: LoggedStatement[];
  /** ERROR lines in the same stretch: a refused statement still costs its round trip. */
  errors: string[];
}

/** `2026-12-07 19:10:00.123 UTC [1234] LOG:  …`: a new message; any other line continues the last one. */
const MESSAGE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(?:\.\d+)? \S+ \[\d+\] ([A-Z]+): {2}(.*)$/;
const STATEMENT = /^(?:(statement)|(execute) [^:]+): ([\s\S]*)$/;

/** The statements a server logged between byte offsets `from` and `to` of its log file. */
export function readStatementLog(file: string, from: number, to: number): StatementLog {
  const text = fs.readFileSync(file).subarray(from, to);
  const statements: LoggedStatement[] = [];
  const errors: string[] = [];
  let current: { offset: number; severity: string; lines: string[] } | undefined;
  const finish = () => {
    if (!current) return;
    const message = current.lines.join("\n");
    if (current.severity === "ERROR") errors.push(message);
    const m = current.severity === "LOG" ? STATEMENT.exec(message) : null;
    if (m) statements.push({ offset: current.offset, protocol: m[1] ? "statement" : "execute", sql: m[3] ?? "" });
    current = undefined;
  };
  let start = 0;
  while (start < text.length) {
    const newline = text.indexOf(0x0a, start);
    const end = newline < 0 ? text.length : newline;
    const line = text.subarray(start, end).toString("utf8");
    const m = MESSAGE.exec(line);
    if (m) {
      finish();
      current = { offset: from + start, severity: m[1] ?? "", lines: [m[2] ?? ""] };
    } else current?.lines.push(line);
    start = end + 1;
  }
  finish();
  return { statements, errors };
}

/** The statement with literals, numbers and `$n` parameters as `?`, a list of them or of rows folded into one. */
export function statementShape(sql: string): string {
  return sql
    .replace(/--[^\n]*/g, " ")
    .replace(/[Ee]?'(?:[^']|'')*'/g, "?")
    .replace(/\$\d+/g, "?")
    .replace(/(?<![\w.])-?\d+(?:\.\d+)?(?![\w.])/g, "?")
    .replace(/\s+/g, " ")
    .replace(/\?(?: ?, ?\?)+/g, "?, …")
    .replace(/\((\?(?:, …)?)\)(?: ?, ?\(\1\))+/g, "($1)")
    .trim();
}

export interface ShapeCount {
  shape: string;
  count: number;
}

/** Statements grouped by shape, the most frequent first. */
export function countShapes(statements: readonly LoggedStatement[]): ShapeCount[] {
  const counts = new Map<string, number>();
  for (const s of statements) {
    const shape = statementShape(s.sql);
    counts.set(shape, (counts.get(shape) ?? 0) + 1);
  }
  return [...counts].map(([shape, count]) => ({ shape, count })).sort((a, b) => b.count - a.count || (a.shape < b.shape ? -1 : 1));
}
