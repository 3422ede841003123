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
 * Runs `fn` while holding a lock shared by every process of this checkout: a directory that
 * appears, owner file inside, by one atomic rename. A lock left by a process that died is taken
 * over; one held by a live process (building, seeding) is waited for as long as that takes,
 * bounded only by the caller's hook timeout.
 */
export async function withLock<T>(lockDir: string, fn: () => Promise<T>): Promise<T> {
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
      fs.rmSync(lockDir, { recursive: true, force: true });
      continue;
    }
    await delay(200);
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(lockDir, { recursive: true, force: true });
  }
}
