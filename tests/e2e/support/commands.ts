import { spawn } from "node:child_process";
import path from "node:path";
import { REDLINE_BUNDLE } from "@/tests/support/redline-bundle";

export const ROOT = path.resolve(__dirname, "..", "..", "..");

export class CommandError extends Error {
  readonly kind = "command";
}

export interface CommandResult {
  code: number | null;
  /** Raw bytes: exports are compared byte for byte. */
  stdout: Buffer;
  stderr: string;
}

/** Runs a program to completion without blocking the event loop, so a build and a seed can overlap. */
export function runCommand(file: string, args: readonly string[], env: Record<string, string> = {}): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString("utf8") }));
  });
}

/** `npm run redline -- …` without npm in between. */
export function runRedline(args: readonly string[]): Promise<CommandResult> {
  return runCommand(process.execPath, [REDLINE_BUNDLE, ...args]);
}

export async function runRedlineOk(args: readonly string[]): Promise<Buffer> {
  const result = await runRedline(args);
  if (result.code !== 0) throw new CommandError(`e2e: redline ${args.join(" ")} exited ${result.code}: ${result.stderr.trim()}`);
  return result.stdout;
}
