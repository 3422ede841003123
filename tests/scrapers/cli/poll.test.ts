import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startSimulator } from "@/simulator/server";
import { freePort } from "@/tests/e2e/support/app-server";
import { freshLocation } from "@/tests/support/database";
import { testDatabaseDialect } from "@/tests/support/test-database-settings";
import { REDLINE_BUNDLE } from "@/tests/support/redline-bundle";

const ROOT = path.resolve(__dirname, "..", "..", "..");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "redline-poll-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Asynchronous, so a simulator in this process can answer the command's requests. */
function redline(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [REDLINE_BUNDLE, ...args], {
      cwd: ROOT,
      env: { ...process.env, REDLINE_ALLOW_PRIVATE_URLS: "1", REDLINE_HOST_INTERVAL_MS: "0" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** A loopback port nothing listens on (it was free a moment ago): a connection to it is refused at once. */
const closedPort = freePort;

async function addVendor(db: string, slug: string, url: string): Promise<void> {
  const added = await redline(["vendors", "add", "--slug", slug, "--name", slug, "--platform", "statuspage", "--url", url, "--db", db]);
  expect(added.code, added.stderr).toBe(0);
}

describe(`redline poll --once (${testDatabaseDialect})`, () => {
  it("fails with a one-line hint naming the first error when every vendor failed", async () => {
    const db = await freshLocation(dir, { name: "offline" });
    const port = await closedPort();
    await addVendor(db, "acme", `http://127.0.0.1:${port}/api/v2/incidents.json`);
    await addVendor(db, "globex", `http://127.0.0.1:${port}/api/v2/summary.json`);
    const round = await redline(["poll", "--once", "--quiet", "--db", db]);
    expect(round.code).not.toBe(0);
    expect(round.stdout).toContain("polled 2 vendors: 0 ok, 2 failed");
    const lines = round.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^redline: every vendor failed: is this machine offline, or is DNS failing\? first error: (acme|globex): http:\/\/127\.0\.0\.1:\d+\/.*refused/i);
  });

  it("the polling loop says once, not each round, that every vendor's poll failed", async () => {
    const db = await freshLocation(dir, { name: "offline-loop" });
    const port = await closedPort();
    await addVendor(db, "acme", `http://127.0.0.1:${port}/api/v2/incidents.json`);
    await addVendor(db, "globex", `http://127.0.0.1:${port}/api/v2/summary.json`);
    const child = spawn(process.execPath, [REDLINE_BUNDLE, "poll", "--db", db], {
      cwd: ROOT,
      env: { ...process.env, REDLINE_ALLOW_PRIVATE_URLS: "1", REDLINE_HOST_INTERVAL_MS: "0", REDLINE_POLL_INTERVAL_SECONDS: "1", REDLINE_MAX_BACKOFF_SECONDS: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const closed = new Promise<void>((resolve) => child.on("close", () => resolve()));
    try {
      // Each vendor failed three times: the line had its chance to come three rounds over.
      await new Promise<void>((resolve) => {
        child.stdout.on("data", (d: Buffer) => {
          stdout += d.toString();
          if (["acme", "globex"].every((slug) => stdout.split(`${slug}: FAILED`).length > 3)) resolve();
        });
        void closed.then(() => resolve());
      });
    } finally {
      child.kill("SIGTERM");
      await closed;
    }
    expect(stdout.split(": FAILED").length - 1, stderr).toBeGreaterThanOrEqual(6);
    const hints = stderr.split("\n").filter((line) => line.startsWith("poller: the last polls of all 2 vendors failed: is this machine offline, or is DNS failing?"));
    expect(hints, stderr).toHaveLength(1);
    expect(hints[0]).toMatch(/Last error: (acme|globex): http:\/\/127\.0\.0\.1:\d+\/.*refused/i);
  });

  it("succeeds when some vendor answered, though another failed", async () => {
    const sim = await startSimulator({ count: 1, families: ["statuspage"], acceleration: 0, start: "2026-03-04T12:00:00.000Z", seed: 3, control: false });
    try {
      const db = await freshLocation(dir, { name: "partial" });
      await addVendor(db, "live", sim.vendors[0]?.url ?? "");
      await addVendor(db, "gone", `http://127.0.0.1:${await closedPort()}/api/v2/incidents.json`);
      const round = await redline(["poll", "--once", "--quiet", "--db", db]);
      expect(round.code, round.stderr).toBe(0);
      expect(round.stdout).toContain("polled 2 vendors: 1 ok, 1 failed");
      expect(round.stderr).toBe("");
    } finally {
      await sim.stop();
    }
  });
});
