import { DEFAULT_DATABASE_FILE, type Env } from "@/lib/env";

/** A word as a POSIX shell reads it back: quoted when it holds anything but plain path characters. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
}

/**
 * `npm run redline -- <args>` as a page prints it for the archive this server uses: with `--db`
 * when that is a SQLite file other than the default (the demo's data/demo.db), which the command
 * would not find from a shell without the server's environment. The file is named from `root`,
 * where `npm run` runs, when it is inside it. A PostgreSQL URL is never printed: it holds a password.
 */
export function redlineCommand(args: string, env: Pick<Env, "REDLINE_DB" | "REDLINE_DATABASE_URL">, root: string): string {
  const command = `npm run redline -- ${args}`;
  if (env.REDLINE_DATABASE_URL !== undefined) return command;
  const prefix = `${root.replace(/\/+$/, "")}/`;
  const file = (env.REDLINE_DB.startsWith(prefix) ? env.REDLINE_DB.slice(prefix.length) : env.REDLINE_DB).replace(/^(\.\/)+/, "");
  return file === DEFAULT_DATABASE_FILE ? command : `${command} --db ${shellWord(file)}`;
}
