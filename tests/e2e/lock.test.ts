import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "@/tests/e2e/support/commands";

const CONTENDER = path.join(ROOT, "tests", "e2e", "support", "lock-contender.ts");

function contend(lockDir: string, rounds: number, log: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", CONTENDER, lockDir, String(rounds), log], { cwd: ROOT });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stderr }));
  });
}

describe("the e2e lock (build and seed are shared by every test process)", () => {
  it("lets one process in at a time while several take it and give it back as fast as they can", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "redline-lock-"));
    const lockDir = path.join(dir, "build.lock");
    const log = path.join(dir, "log");
    const rounds = 150;
    try {
      const results = await Promise.all([1, 2, 3, 4].map(() => contend(lockDir, rounds, log)));
      for (const result of results) expect(result, result.stderr).toMatchObject({ code: 0 });
      expect(fs.readFileSync(log, "utf8").trim().split("\n")).toHaveLength(4 * rounds);
      // Nothing is left behind: no lock, no claim, no lock taken away to be deleted.
      expect(fs.readdirSync(dir).sort()).toEqual(["log"]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("takes over a lock whose owner has died", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "redline-lock-"));
    const lockDir = path.join(dir, "build.lock");
    const log = path.join(dir, "log");
    try {
      const dead = spawn(process.execPath, ["-e", ""]);
      const deadPid = await new Promise<number>((resolve) => dead.on("close", () => resolve(dead.pid ?? 0)));
      fs.mkdirSync(lockDir);
      fs.writeFileSync(path.join(lockDir, "owner"), String(deadPid));
      const results = await Promise.all([1, 2].map(() => contend(lockDir, 3, log)));
      for (const result of results) expect(result, result.stderr).toMatchObject({ code: 0 });
      expect(fs.readFileSync(log, "utf8").trim().split("\n")).toHaveLength(6);
      expect(fs.existsSync(lockDir)).toBe(false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
