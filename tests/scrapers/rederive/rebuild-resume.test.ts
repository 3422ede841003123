import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { closeDatabase, openDatabase } from "@/db/client";
import { ensureVendor } from "@/db/vendors";
import { DERIVATION_VERSION } from "@/lib/derive/derivation-version";
import { importSnapshots, listSnapshotFolder } from "@/scrapers/ingest/import-snapshots";
import { getPlatform } from "@/scrapers/platforms";
import { runRedline } from "@/tests/e2e/support/commands";
import { corpusPath, describeCorpus } from "@/tests/support/corpus";
import { readCount, waitFor } from "@/tests/support/observe";
import { watchProcess } from "@/tests/support/watch-process";

const ROOT = path.resolve(__dirname, "..", "..", "..");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "redline-rebuild-resume-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function rederive(file: string) {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "scrapers", "cli", "main.ts"), "rederive", "--vendor", "jira", "--db", file], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  return { child, watched: watchProcess(child) };
}

describeCorpus("a rebuild killed midway", () => {
  it("resumes where it stopped on the next run and ends exactly as a fresh derivation", async () => {
    const file = path.join(dir, "redline.db");
    const db = openDatabase(file);
    const platform = getPlatform("statuspage-summary");
    if (!platform) throw new Error("no statuspage-summary platform");
    await importSnapshots(db, await ensureVendor(db, { slug: "jira", platform: platform.name }), platform, listSnapshotFolder(corpusPath("statuspage-summary-jira")).snapshots);
    // What a parser upgrade leaves behind: history derived by an older parser, its summaries worded otherwise.
    db.$client.prepare("UPDATE vendors SET derived_with = ? WHERE slug = 'jira'").run(JSON.stringify({ "@derive": DERIVATION_VERSION, "statuspage-summary": 0 }));
    closeDatabase(db);
    const exportOf = async () => (await runRedline(["export", "--vendor", "jira", "--format", "json", "--db", file])).stdout;
    const expected = await exportOf();
    const tamper = openDatabase(file);
    tamper.$client.prepare("UPDATE incident_versions SET content = redline_version_with(content, 'summary', 'worded by an older parser')").run();
    closeDatabase(tamper);
    expect(await exportOf()).not.toEqual(expected);

    const first = rederive(file);
    const done = "SELECT coalesce(max(captures_done), 0) AS n FROM derivation_jobs WHERE status = 'building'";
    await waitFor("the rebuild to be under way", () => (readCount(file, done) ?? 0) >= 40, () => (first.child.exitCode !== null ? `rederive exited: ${first.watched.stderr.join("\n")}` : null));
    first.child.kill("SIGKILL");
    await first.watched.exited;
    const job = readCount(file, "SELECT count(*) AS n FROM derivation_jobs WHERE status IN ('building', 'swapping') AND scratch_path IS NOT NULL");
    expect(job).toBe(1);
    const stoppedAt = readCount(file, "SELECT max(captures_done) AS n FROM derivation_jobs") ?? 0;

    const second = rederive(file);
    const exit = await second.watched.exited;
    expect(exit.code, second.watched.stderr.join("\n")).toBe(0);
    const resumed = second.watched.stderr.map((l) => /resuming the rebuild where it stopped, at capture (\d+) of (\d+)/.exec(l)).find((m) => m !== null);
    expect(resumed, second.watched.stderr.join("\n")).toBeDefined();
    expect(Number(resumed?.[1])).toBeGreaterThanOrEqual(stoppedAt - 50);
    expect(Number(resumed?.[1])).toBeGreaterThan(0);
    expect(readCount(file, "SELECT count(*) AS n FROM derivation_jobs WHERE status = 'done'")).toBe(1);
    expect(await exportOf()).toEqual(expected);
    expect(fs.readdirSync(dir).filter((f) => f.startsWith("redline-rebuild-"))).toEqual([]);
  });
});
