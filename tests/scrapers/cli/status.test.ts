import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { closeStore, openStore, type RedlineDb } from "@/db/client";
import { createApi } from "@/server/api/api";
import { corpusPath, corpusSnapshots, describeCorpus, observedAtOf } from "@/tests/support/corpus";
import { countRows, freshLocation } from "@/tests/support/database";
import { REDLINE_BUNDLE } from "@/tests/support/redline-bundle";
import { testDatabaseDialect } from "@/tests/support/test-database-settings";

const ROOT = path.resolve(__dirname, "..", "..", "..");

function redline(args: string[]) {
  const result = spawnSync(process.execPath, [REDLINE_BUNDLE, ...args], { cwd: ROOT, encoding: "utf8" });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** GitHub's good snapshots by observation time, read from the files. */
function githubSnapshots(): Array<{ at: string; degraded: string[]; count: number }> {
  return corpusSnapshots("statuspage-summary-github-2025").map((file) => {
    const json = JSON.parse(fs.readFileSync(file, "utf8")) as { components: Array<{ name: string; status: string }> };
    return { at: observedAtOf(file), degraded: json.components.filter((c) => c.status !== "operational").map((c) => c.name), count: json.components.length };
  });
}

describeCorpus(`redline status (${testDatabaseDialect})`, () => {
  let dir: string;
  let location: string;
  let db: RedlineDb;
  const snapshots = githubSnapshots();

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "redline-status-"));
    location = await freshLocation(dir);
    const imported = redline(["import", corpusPath("statuspage-summary-github-2025"), "--vendor", "github", "--name", "GitHub", "--platform", "statuspage-summary", "--db", location]);
    expect(imported.code, imported.stderr).toBe(0);
    db = await openStore(location);
  }, 120_000);
  afterAll(async () => {
    await closeStore(db);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** A moment halfway between the first snapshot showing a component degraded and the next one. */
  function degradedMoment(): { at: string; observedAt: string; next: string; degraded: string[]; count: number } {
    const i = snapshots.findIndex((s, n) => s.degraded.length > 0 && n + 1 < snapshots.length);
    const [snap, next] = [snapshots[i], snapshots[i + 1]];
    if (!snap || !next) throw new Error("no degraded snapshot in the corpus folder");
    return { at: new Date((Date.parse(snap.at) + Date.parse(next.at)) / 2).toISOString(), observedAt: snap.at, next: next.at, degraded: snap.degraded, count: snap.count };
  }

  it("prints as JSON exactly the body the API answers for the same moment", async () => {
    const api = createApi(() => db);
    for (const i of [3, 120, 250]) {
      const at = new Date(Date.parse(snapshots[i]?.at ?? "") + 60_000).toISOString();
      const cli = redline(["status", "--vendor", "github", "--at", at, "--format", "json", "--db", location]);
      expect(cli.code, cli.stderr).toBe(0);
      const response = await api.getVendorStatus(new Request(`http://redline.test/api/v1/vendors/github/status?at=${at}`), { params: Promise.resolve({ slug: "github" }) });
      expect(JSON.parse(cli.stdout), at).toEqual(await response.json());
      expect(Object.keys(JSON.parse(cli.stdout) as object)).toEqual(["vendor", "at", "observedAt", "components", "incidents"]);
    }
  });

  it("prints a grid a terminal reads at a glance: degraded components first, the vendor's word, since when, the capture it rests on and the changes around it", () => {
    const moment = degradedMoment();
    const result = redline(["status", "--vendor", "github", "--at", moment.at, "--db", location]);
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.split("\n");
    expect(lines[0]).toBe(`GitHub (github) as it was at ${moment.at.slice(0, 10)} ${moment.at.slice(11, 19)} UTC`);
    expect(lines[1]).toMatch(new RegExp(`^As observed at ${moment.observedAt.slice(0, 10)} ${moment.observedAt.slice(11, 16)} UTC, \\d.* before; next observed at ${moment.next.slice(0, 10)} ${moment.next.slice(11, 16)} UTC, .* after\\.$`));
    const header = lines.findIndex((l) => l.startsWith("COMPONENT"));
    const grid = lines.slice(header + 1, lines.indexOf("", header));
    expect(grid).toHaveLength(moment.count);
    // Every component not operational comes before every operational one.
    const firstOperational = grid.findIndex((l) => /\bOperational\b/.test(l));
    expect(grid.slice(0, firstOperational).map((l) => l.slice(0, 36).trim()).sort()).toEqual([...moment.degraded].sort());
    expect(grid.slice(firstOperational).every((l) => / Operational {2,}operational {2,}since \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/.test(l))).toBe(true);
    expect(result.stdout).toMatch(/\n(No incident open then\.|Incidents open then \(\d+\):)\n/);
    expect(lines.filter((l) => l !== "").at(-1)).toMatch(/^Previous change: \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC; next change: \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC\.$/);
  });

  it("says now that an archive only imported long ago is unknown since its last capture, in text and in JSON", () => {
    const last = snapshots.at(-1)?.at ?? "";
    const text = redline(["status", "--vendor", "github", "--db", location]);
    expect(text.code).toBe(0);
    expect(text.stdout.split("\n")[1]).toBe(`Unknown since the last good capture on ${last.slice(0, 10)} ${last.slice(11, 16)} UTC (not polled: as of the last imported capture): what follows is as observed then, not now.`);
    const json = JSON.parse(redline(["status", "--vendor", "github", "--format", "json", "--db", location]).stdout) as { observedAt: string; components: Array<{ status: string; since: string }> };
    expect(json.observedAt).toBe(last);
    expect(json.components.every((c) => c.status === "unknown" && c.since === last)).toBe(true);
  });

  it("refuses a malformed moment with exit 2 and one line, before opening the database", () => {
    const result = redline(["status", "--vendor", "github", "--at", "last tuesday", "--db", path.join(dir, "absent.db")]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('redline: --at: expected an ISO 8601 time such as 2025-05-01T14:05:00Z, not "last tuesday"\n');
    expect(fs.existsSync(path.join(dir, "absent.db"))).toBe(false);
  });

  it("refuses a moment before the first capture with exit 1, saying from when the vendor is archived", () => {
    const result = redline(["status", "--vendor", "github", "--at", "2024-01-01T00:00:00Z", "--db", location]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`redline: GitHub is archived from ${snapshots[0]?.at ?? ""}: nothing is known of its page before\n`);
    expect(result.stdout).toBe("");
  });

  it("refuses an unknown vendor naming it, and creates nothing", async () => {
    const before = await countRows(db, "vendors");
    const result = redline(["status", "--vendor", "gitlab", "--db", location]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('redline: unknown vendor "gitlab"\n');
    expect(await countRows(db, "vendors")).toBe(before);
    if (testDatabaseDialect === "sqlite") {
      const absent = path.join(dir, "none.db");
      expect(redline(["status", "--vendor", "gitlab", "--db", absent]).code).toBe(1);
      expect(fs.existsSync(absent)).toBe(false);
    }
  });
});
