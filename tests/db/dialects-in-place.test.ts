import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * What SQLite and PostgreSQL do differently is written once per database, in db/sqlite/ and
 * db/postgres/ (with the schema and the migrations): everywhere else code asks the connection's
 * dialect what the database can do, and never names it.
 */

const ROOT = process.cwd();
const FOLDERS = ["app", "lib", "db", "scrapers", "server", "notify", "components", "scripts", "simulator"];
/** Where naming a database is the point: its own folders, the schema, the migrations and their generator's configuration. */
const PLACES = ["db/sqlite/", "db/postgres/", "db/schema/", "db/migrations", "drizzle."];
const NAMES = new Set(["sqlite", "postgres", "pg"]);

/** The source files that must not name a database, relative to the root. */
function sourceFiles(): string[] {
  const files: string[] = fs.readdirSync(ROOT).filter((name) => /\.tsx?$/.test(name) && isSource(name) && fs.statSync(path.join(ROOT, name)).isFile());
  const walk = (folder: string): void => {
    for (const entry of fs.readdirSync(path.join(ROOT, folder), { withFileTypes: true })) {
      const relative = `${folder}/${entry.name}`;
      if (entry.isDirectory()) walk(relative);
      else if (isSource(entry.name)) files.push(relative);
    }
  };
  for (const folder of FOLDERS) walk(folder);
  return files.filter((file) => !PLACES.some((place) => file.startsWith(place))).sort();
}

function isSource(name: string): boolean {
  return /\.(ts|tsx|mts)$/.test(name) && !name.endsWith(".d.ts");
}

/** The string literals of `source` with their lines, and its code with comments and literals blanked (lines kept). */
function lex(source: string): { literals: Array<{ value: string; line: number }>; code: string } {
  const literals: Array<{ value: string; line: number }> = [];
  let code = "";
  let line = 1;
  let i = 0;
  // Where a `/` starts a regular expression rather than a division: after an operator, a bracket or a keyword.
  let regexAllowed = true;
  const blank = (text: string): void => {
    code += text.replace(/[^\n]/g, " ");
    line += text.split("\n").length - 1;
  };
  // Braces open in code, per template substitution being read: a `}` at depth 0 ends the substitution.
  const substitutions: number[] = [];
  const readTemplate = (): void => {
    // At the character after a backtick or after a substitution's `}`.
    const start = i;
    const startLine = line;
    let text = "";
    while (i < source.length) {
      const c = source[i];
      if (c === "\\") {
        text += source.slice(i, i + 2);
        i += 2;
      } else if (c === "`") {
        i += 1;
        if (source[start - 1] === "`") literals.push({ value: text, line: startLine });
        blank(source.slice(start, i));
        regexAllowed = false;
        return;
      } else if (c === "$" && source[i + 1] === "{") {
        i += 2;
        blank(source.slice(start, i));
        substitutions.push(0);
        regexAllowed = true;
        return;
      } else {
        text += c;
        i += 1;
      }
    }
    blank(source.slice(start));
  };
  while (i < source.length) {
    const c = source[i] ?? "";
    const next = source[i + 1];
    if (c === "/" && next === "/") {
      const end = source.indexOf("\n", i);
      const stop = end === -1 ? source.length : end;
      blank(source.slice(i, stop));
      i = stop;
    } else if (c === "/" && next === "*") {
      const end = source.indexOf("*/", i + 2);
      const stop = end === -1 ? source.length : end + 2;
      blank(source.slice(i, stop));
      i = stop;
    } else if (c === "'" || c === '"') {
      let j = i + 1;
      let value = "";
      while (j < source.length && source[j] !== c && source[j] !== "\n") {
        if (source[j] === "\\") {
          value += source.slice(j, j + 2);
          j += 2;
        } else {
          value += source[j];
          j += 1;
        }
      }
      literals.push({ value, line });
      blank(source.slice(i, j + 1));
      i = j + 1;
      regexAllowed = false;
    } else if (c === "`") {
      i += 1;
      code += " ";
      readTemplate();
    } else if (c === "/" && regexAllowed) {
      let j = i + 1;
      let inClass = false;
      while (j < source.length && source[j] !== "\n") {
        const r = source[j];
        if (r === "\\") j += 1;
        else if (r === "[") inClass = true;
        else if (r === "]") inClass = false;
        else if (r === "/" && !inClass) break;
        j += 1;
      }
      j += 1;
      while (j < source.length && /[a-z]/i.test(source[j] ?? "")) j += 1;
      blank(source.slice(i, j));
      i = j;
      regexAllowed = false;
    } else if (c === "}" && substitutions.length > 0 && substitutions[substitutions.length - 1] === 0) {
      substitutions.pop();
      i += 1;
      code += " ";
      readTemplate();
    } else {
      if (substitutions.length > 0 && c === "{") substitutions[substitutions.length - 1] = (substitutions[substitutions.length - 1] ?? 0) + 1;
      if (substitutions.length > 0 && c === "}") substitutions[substitutions.length - 1] = (substitutions[substitutions.length - 1] ?? 0) - 1;
      if (/[A-Za-z0-9_$]/.test(c)) {
        let j = i;
        while (j < source.length && /[A-Za-z0-9_$]/.test(source[j] ?? "")) j += 1;
        const word = source.slice(i, j);
        code += word;
        i = j;
        regexAllowed = ["return", "typeof", "case", "in", "of", "void", "throw", "new", "delete", "yield", "await", "else", "do"].includes(word);
      } else {
        code += c;
        if (c === "\n") line += 1;
        i += 1;
        if (!/\s/.test(c)) regexAllowed = !/[)\]]/.test(c);
      }
    }
  }
  return { literals, code };
}

/** Each place of `source` that names a database: "line: what". */
export function namedDatabases(source: string): string[] {
  const { literals, code } = lex(source);
  const found: Array<{ line: number; what: string }> = literals.filter((literal) => NAMES.has(literal.value)).map((literal) => ({ line: literal.line, what: `the string ${JSON.stringify(literal.value)}` }));
  code.split("\n").forEach((text, index) => {
    for (const match of text.matchAll(/(?:^|[{,])\s*(sqlite|postgres)\s*:/g)) found.push({ line: index + 1, what: `the key ${match[1] ?? ""}:` });
    if (/\bdialect\s*\??\.\s*name\b/.test(text)) found.push({ line: index + 1, what: "dialect.name" });
  });
  return found.sort((a, b) => a.line - b.line).map((f) => `${f.line}: ${f.what}`);
}

describe("dialects in place", () => {
  it("finds a database named in a string, a key or by dialect.name, and not in comments, other words or regular expressions", () => {
    const source = [
      `// "sqlite" in a comment`,
      `/* { postgres: 1 } and 'pg' */`,
      `const a = { sqlite: "x", postgres: "y" };`,
      "if (db.connection.dialect.name === 'postgres') x();",
      "const b = `pg`, c = `postgres://${host}`, d = \"SQLite\", e = `${x ? `sqlite` : y}`;",
      `const f = /^postgres(ql)?:\\/\\//i.test(url) ? "postgresql" : "sqlite3";`,
      `let sqlite: Database; const g = cond ? sqlite : other;`,
      `function h({ pool }: { pool: number }) { return 'pg'; }`,
    ].join("\n");
    expect(namedDatabases(source)).toEqual([
      "3: the key sqlite:",
      "3: the key postgres:",
      '4: the string "postgres"',
      "4: dialect.name",
      '5: the string "pg"',
      '5: the string "sqlite"',
      '8: the string "pg"',
    ]);
  });

  it("no source file outside db/sqlite, db/postgres, the schema and the migrations names a database", () => {
    const files = sourceFiles();
    expect(files).toContain("db/client.ts");
    expect(files).toContain("scrapers/cli/main.ts");
    expect(files.some((file) => file.startsWith("db/sqlite/"))).toBe(false);
    const found = files.flatMap((file) => namedDatabases(fs.readFileSync(path.join(ROOT, file), "utf8")).map((place) => `${file}:${place}`));
    expect(found).toEqual([]);
  });
});
