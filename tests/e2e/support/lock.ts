import fs from "node:fs";
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";

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
 * Takes the lock directory away from its name by one rename, then deletes it. Deleting it in
 * place would empty it first, and rename(2) replaces an empty directory: a waiter's claim would
 * land on the name mid-delete, and the delete would then fail (ENOTEMPTY) or remove that claim.
 * With `onlyIfOwner`, only a lock still naming that (dead) owner is removed.
 */
function removeLock(lockDir: string, onlyIfOwner?: number): void {
  const away = `${lockDir}.removed-${process.pid}-${Math.random().toString(36).slice(2)}`;
  try {
    fs.renameSync(lockDir, away);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  if (onlyIfOwner !== undefined && ownerOf(away) !== onlyIfOwner) {
    // Another waiter took the dead owner's lock over between our look and our rename: put its
    // lock back (the name is free unless a third claim landed in these few microseconds).
    fs.renameSync(away, lockDir);
    return;
  }
  fs.rmSync(away, { recursive: true, force: true });
}

/**
 * Runs `fn` while holding a lock shared by every process of this checkout: a directory that
 * appears, owner file inside, by one atomic rename, and leaves by one rename. A lock left by a
 * process that died is taken over; one held by a live process (building, seeding) is waited for
 * as long as that takes, bounded only by the caller's hook timeout.
 */
export async function withLock<T>(lockDir: string, fn: () => Promise<T>, pollMs = 200): Promise<T> {
  for (;;) {
    const claim = fs.mkdtempSync(`${lockDir}.claim-`);
    fs.writeFileSync(path.join(claim, "owner"), String(process.pid));
    try {
      fs.renameSync(claim, lockDir);
      break;
    } catch (error) {
      fs.rmSync(claim, { recursive: true, force: true });
      if (!["EEXIST", "ENOTEMPTY"].includes((error as NodeJS.ErrnoException).code ?? "")) throw error;
    }
    const owner = ownerOf(lockDir);
    if (owner !== null && !isProcessAlive(owner)) {
      removeLock(lockDir, owner);
      continue;
    }
    await delay(pollMs);
  }
  try {
    return await fn();
  } finally {
    removeLock(lockDir);
  }
}
