import fs from "node:fs";
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";

export class LockError extends Error {
  readonly kind = "lock";
}

/** Whether a process with this id is running (signal 0 only checks). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function ownerOf(lockDir: string): number | null {
  try {
    const pid = Number(fs.readFileSync(path.join(lockDir, "owner"), "utf8"));
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/**
 * Runs `fn` while holding a lock shared by every process of this checkout: a directory, since
 * mkdir is atomic. A lock left by a process that died is taken over.
 */
export async function withLock<T>(lockDir: string, timeoutMs: number, fn: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      fs.mkdirSync(lockDir);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const owner = ownerOf(lockDir);
    if (owner !== null && !isProcessAlive(owner)) {
      fs.rmSync(lockDir, { recursive: true, force: true });
      continue;
    }
    if (Date.now() > deadline) throw new LockError(`e2e: gave up waiting for ${lockDir} (held by process ${owner ?? "?"})`);
    await delay(200);
  }
  fs.writeFileSync(path.join(lockDir, "owner"), String(process.pid));
  try {
    return await fn();
  } finally {
    fs.rmSync(lockDir, { recursive: true, force: true });
  }
}
