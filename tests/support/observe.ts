import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import { setTimeout as pause } from "node:timers/promises";
import Database from "better-sqlite3";
import { registerSearchFunctions } from "@/db/search/search-text";

/** How often a condition is looked at again: a polling rate, not a guess at how long anything takes. */
const LOOK_AGAIN_MS = 5;

/**
 * Resolves once `condition` holds. There is no deadline of its own (the test's timeout is the
 * only one, so a slow machine only waits longer); `unless` names a reason to stop looking, such
 * as a process that exited, and the wait then fails with it.
 */
export async function waitFor(what: string, condition: () => boolean | Promise<boolean>, unless: () => string | null = () => null): Promise<void> {
  for (;;) {
    if (await condition()) return;
    const reason = unless();
    if (reason !== null) throw new Error(`gave up waiting for ${what}: ${reason}`);
    await pause(LOOK_AGAIN_MS);
  }
}

/**
 * A single number read from a database file another process is writing, through a read-only
 * connection of its own; null while the file or its tables do not exist yet.
 */
export function readCount(file: string, sql: string): number | null {
  if (!fs.existsSync(file)) return null;
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    registerSearchFunctions(db);
    const row = db.prepare(sql).get() as { n: number } | undefined;
    return row?.n ?? null;
  } catch (error) {
    const code = (error as { code?: string }).code ?? "";
    const message = (error as Error).message;
    // Not created yet, mid-creation, briefly locked by the writer, or its WAL index not yet rebuilt: look again later.
    if (/^SQLITE_(CANTOPEN|BUSY|LOCKED|NOTADB|READONLY_RECOVERY|READONLY_CANTINIT)/.test(code) || /no such table/.test(message)) return null;
    throw error;
  } finally {
    db?.close();
  }
}

export interface ChildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** stdout and stderr together. */
  out: string;
}

/** The child's exit with everything it printed; attach before the child can have exited. */
export function exitOf(child: ChildProcess): Promise<ChildExit> {
  let out = "";
  child.stdout?.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (out += d.toString()));
  return new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal, out })));
}

/** Why a child is no longer worth waiting on, or null while it runs. */
export function childGone(child: ChildProcess): string | null {
  if (child.exitCode !== null) return `the process exited with code ${child.exitCode}`;
  if (child.signalCode !== null) return `the process was ended by ${child.signalCode}`;
  return null;
}
