import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { closeStore, openStore, type RedlineDb } from "@/db/client";
import { packVersionContent, unpackVersionContent } from "@/db/history/version-content";
import { ensureVendor } from "@/db/settings/vendors";
import { DERIVATION_VERSION } from "@/lib/derive/derivation-version";
import { importSnapshots, listSnapshotFolder } from "@/scrapers/ingest/import-snapshots";
import { getPlatform } from "@/scrapers/platforms";
import { runRedline } from "@/tests/e2e/support/commands";
import { corpusPath, describeCorpus } from "@/tests/support/corpus";
import { freshLocation, queryRow, queryRows, runSql } from "@/tests/support/database";
import { waitFor } from "@/tests/support/observe";
import { testDatabaseDialect } from "@/tests/support/test-database-settings";
import { watchProcess } from "@/tests/support/watch-process";
import { REDLINE_BUNDLE } from "@/tests/support/redline-bundle";

const ROOT = path.resolve(__dirname, "..", "..", "..");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "redline-rebuild-resume-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function rederive(location: string) {
  const child = spawn(process.execPath, [REDLINE_BUNDLE, "rederive", "--vendor", "jira", "--db", location], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  return { child, watched: watchProcess(child) };
}

/** Every version's summary reworded, as an older parser would have worded it. */
async function rewordSummaries(db: RedlineDb): Promise<void> {
  const versions = await queryRows<{ id: number; content: Buffer }>(db, "SELECT id, content FROM incident_versions");
  expect(versions.length).toBeGreaterThan(10);
  for (const v of versions) {
    const reworded = packVersionContent({ ...unpackVersionContent(v.content), summary: "worded by an older parser" });
    await runSql(db, "UPDATE incident_versions SET content = ? WHERE id = ?", reworded, v.id);
  }
}

const number = async (db: RedlineDb, sql: string) => (await queryRow<{ n: number | null }>(db, sql))?.n ?? 0;

describeCorpus(`a rebuild killed midway (${testDatabaseDialect})`, () => {
  it("resumes where it stopped on the next run and ends exactly as a fresh derivation, its scratch removed", async () => {
    const location = await freshLocation(dir);
    const db = await openStore(location);
    try {
      const platform = getPlatform("statuspage-summary");
      if (!platform) throw new Error("no statuspage-summary platform");
      await importSnapshots(db, await ensureVendor(db, { slug: "jira", platform: platform.name }), platform, listSnapshotFolder(corpusPath("statuspage-summary-jira")).snapshots);
      // What a parser upgrade leaves behind: history derived by an older parser, its summaries worded otherwise.
      await runSql(db, "UPDATE vendors SET derived_with = ? WHERE slug = 'jira'", JSON.stringify({ "@derive": DERIVATION_VERSION, "statuspage-summary": 0 }));
      const exportOf = async () => (await runRedline(["export", "--vendor", "jira", "--format", "json", "--db", location])).stdout;
      const expected = await exportOf();
      await rewordSummaries(db);
      expect(await exportOf()).not.toEqual(expected);

      const first = rederive(location);
      const done = "SELECT coalesce(max(captures_done), 0) AS n FROM derivation_jobs WHERE status = 'building'";
      await waitFor("the rebuild to be under way", async () => (await number(db, done)) >= 40, () => (first.child.exitCode !== null ? `rederive exited: ${first.watched.stderr.join("\n")}` : null));
      first.child.kill("SIGKILL");
      await first.watched.exited;
      const jobs = await queryRows<{ scratch: string }>(db, "SELECT scratch_path AS scratch FROM derivation_jobs WHERE status IN ('building', 'swapping') AND scratch_path IS NOT NULL");
      expect(jobs).toHaveLength(1);
      const scratch = jobs[0]?.scratch ?? "";
      expect(fs.existsSync(scratch)).toBe(true);
      const stoppedAt = await number(db, "SELECT max(captures_done) AS n FROM derivation_jobs");

      const second = rederive(location);
      const exit = await second.watched.exited;
      expect(exit.code, second.watched.stderr.join("\n")).toBe(0);
      const resumed = second.watched.stderr.map((l) => /resuming the rebuild where it stopped, at capture (\d+) of (\d+)/.exec(l)).find((m) => m !== null);
      expect(resumed, second.watched.stderr.join("\n")).toBeDefined();
      expect(Number(resumed?.[1])).toBeGreaterThanOrEqual(stoppedAt - 50);
      expect(Number(resumed?.[1])).toBeGreaterThan(0);
      expect(await number(db, "SELECT count(*) AS n FROM derivation_jobs WHERE status = 'done'")).toBe(1);
      const versions = await number(db, "SELECT count(*) AS n FROM incident_versions v JOIN vendors d ON d.id = v.vendor_id WHERE d.slug = 'jira'");
      expect(second.watched.stdout).toContain(`rederived jira: ${resumed?.[2] ?? "?"} captures, ${versions} versions`);
      expect(await exportOf()).toEqual(expected);
      expect(["", "-wal", "-shm"].filter((suffix) => fs.existsSync(`${scratch}${suffix}`))).toEqual([]);
      expect(fs.readdirSync(dir).filter((f) => f.startsWith("redline-rebuild-"))).toEqual([]);
    } finally {
      await closeStore(db);
    }
  });
});
