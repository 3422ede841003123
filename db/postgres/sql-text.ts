/**
 * SQLite's statement text as PostgreSQL takes it: `?` and `@name` (or `:name`, `$name`) become
 * `$1…$n`, a name used twice being one parameter, and an alias with capitals is quoted, since
 * PostgreSQL folds unquoted names to lower case (`AS vendorId` would come back as `vendorid`).
 * Quoted strings, quoted names and comments are left alone. What the dialects spell differently
 * otherwise is written once per database (db/driver/database.ts), not rewritten here.
 */

export interface PostgresSql {
  text: string;
  /** The values for $1…$n from the parameters the statement is called with. */
  bind: (params: readonly unknown[]) => unknown[];
}

export class SqlTranslationError extends Error {
  readonly kind = "sql-translation";
}

const NAME = /[A-Za-z_][A-Za-z0-9_]*/y;
const ALIAS = /\bAS(\s+)([A-Za-z_][A-Za-z0-9_]*)/iy;

export function translateToPostgres(sql: string): PostgresSql {
  let text = "";
  let positional = 0;
  const names: string[] = [];
  let i = 0;
  while (i < sql.length) {
    const c = sql[i] ?? "";
    const next = sql[i + 1] ?? "";
    if (c === "'" || c === '"') {
      const end = closingQuote(sql, i, c);
      text += sql.slice(i, end);
      i = end;
    } else if (c === "-" && next === "-") {
      const end = sql.indexOf("\n", i);
      const stop = end === -1 ? sql.length : end;
      text += sql.slice(i, stop);
      i = stop;
    } else if (c === "/" && next === "*") {
      const end = sql.indexOf("*/", i + 2);
      const stop = end === -1 ? sql.length : end + 2;
      text += sql.slice(i, stop);
      i = stop;
    } else if (c === "?") {
      positional += 1;
      text += `$${positional}`;
      i += 1;
    } else if ((c === "@" || c === "$" || (c === ":" && next !== ":" && sql[i - 1] !== ":")) && /[A-Za-z_]/.test(next)) {
      NAME.lastIndex = i + 1;
      const name = NAME.exec(sql)?.[0] ?? "";
      let index = names.indexOf(name);
      if (index === -1) index = names.push(name) - 1;
      text += `$${index + 1}`;
      i += 1 + name.length;
    } else if ((c === "A" || c === "a") && !/[A-Za-z0-9_]/.test(sql[i - 1] ?? "")) {
      ALIAS.lastIndex = i;
      const alias = ALIAS.exec(sql);
      // Capitals among lower case: a camelCase alias, not a keyword (`AS MATERIALIZED`).
      if (alias && /[A-Z]/.test(alias[2] ?? "") && /[a-z]/.test(alias[2] ?? "")) {
        text += `AS${alias[1]}"${alias[2]}"`;
        i += alias[0].length;
      } else {
        text += c;
        i += 1;
      }
    } else if (c === ":" && next === ":") {
      text += "::";
      i += 2;
    } else {
      text += c;
      i += 1;
    }
  }
  if (positional > 0 && names.length > 0) throw new SqlTranslationError(`store: a statement mixes ? and named parameters: ${sql.slice(0, 120)}`);
  if (names.length === 0) return { text, bind: (params) => params.map(toPostgresValue) };
  return {
    text,
    bind: (params) => {
      const values = params[0];
      if (params.length !== 1 || typeof values !== "object" || values === null) {
        throw new SqlTranslationError(`store: a statement with named parameters takes one object: ${sql.slice(0, 120)}`);
      }
      return names.map((name) => {
        if (!(name in values)) throw new SqlTranslationError(`store: missing named parameter @${name}: ${sql.slice(0, 120)}`);
        return toPostgresValue((values as Record<string, unknown>)[name]);
      });
    },
  };
}

function closingQuote(sql: string, start: number, quote: string): number {
  let i = start + 1;
  while (i < sql.length) {
    if (sql[i] === quote) {
      if (sql[i + 1] === quote) i += 2;
      else return i + 1;
    } else i += 1;
  }
  return sql.length;
}

/** Values as node-postgres sends them; a bigint beyond a number's range is kept exact, as text. */
function toPostgresValue(value: unknown): unknown {
  if (typeof value === "bigint") return value.toString();
  return value;
}
