/**
 * Raw-body storage benchmark: each corpus history imported into a fresh database; the bytes its
 * raw bodies take (deltas), beside gzip of each body alone (the layout before) and a git pack of
 * the same snapshots committed in order (`git gc --aggressive`); and the time to restore each
 * capture's body from scratch (no reader cache, after a warm-up pass), p50/p99/max.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { restoreBody, restoreCaptureBody } from "@/db/history/capture-bodies";
import { closeDatabase, openDatabase } from "@/db/client";
import { ensureVendor } from "@/db/settings/vendors";
import { importSnapshots, listSnapshotFolder } from "@/scrapers/ingest/import-snapshots";
import { getPlatform } from "@/scrapers/platforms";
import { CORPUS_DIR, CORPUS_FOLDERS } from "@/tests/support/corpus-location";

function gitPackBytes(dir: string, files: readonly string[]): number {
  const repo = fs.mkdtempSync(path.join(os.tmpdir(), "redline-bench-git-"));
  const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=bench", "-c", "user.email=bench@localhost", ...args], { cwd: repo, stdio: "pipe" });
  try {
    git("init", "-q");
    for (const file of files) {
      fs.copyFileSync(path.join(dir, file), path.join(repo, "body"));
      git("add", "body");
      git("commit", "-q", "--allow-empty", "-m", file);
    }
    git("gc", "--aggressive", "-q");
    const packs = path.join(repo, ".git", "objects", "pack");
    return fs.readdirSync(packs).filter((f) => f.endsWith(".pack")).reduce((n, f) => n + fs.statSync(path.join(packs, f)).size, 0);
  } finally {
    fs.rmSync(repo, { recursive: true, force: true });
  }
}

const quantile = (sorted: readonly number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? 0;
const kb = (n: number) => `${(n / 1024).toFixed(0)} KB`;

export async function runRawBodiesBenchmark(): Promise<void> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "redline-bench-bodies-"));
  try {
    for (const { folder, vendor, platform } of CORPUS_FOLDERS) {
      const p = getPlatform(platform);
      if (!p) throw new Error(`bench: unknown platform ${platform}`);
      const dir = path.join(CORPUS_DIR, folder);
      const db = openDatabase(path.join(tmp, `${vendor}.db`));
      const started = performance.now();
      await importSnapshots(db, await ensureVendor(db, { slug: vendor, platform: p.name }), p, listSnapshotFolder(dir).snapshots);
      const importMs = performance.now() - started;
      const rows = db.$client.prepare<[], { hash: string; size: number; bytes: number; depth: number }>("SELECT lower(hex(hash)) AS hash, size, length(body) AS bytes, depth FROM capture_bodies").all();
      const raw = rows.reduce((n, r) => n + r.size, 0);
      const stored = rows.reduce((n, r) => n + r.bytes, 0);
      let gzip = 0;
      for (const r of rows) gzip += gzipSync(await restoreBody(db, r.hash), { level: 1 }).byteLength;
      const ids = db.$client.prepare<[], { id: number }>("SELECT id FROM captures WHERE body_id IS NOT NULL").all().map((r) => r.id);
      // A first pass warms the JIT and SQLite's page cache; the second is timed.
      for (const id of ids) await restoreCaptureBody(db, id);
      const times: number[] = [];
      for (const id of ids) {
        const t = performance.now();
        await restoreCaptureBody(db, id);
        times.push(performance.now() - t);
      }
      times.sort((a, b) => a - b);
      closeDatabase(db);
      const files = fs.readdirSync(dir).filter((f) => /^\d{8}T\d{6}Z__/.test(f)).sort();
      const pack = gitPackBytes(dir, files);
      console.log(
        `${folder}: ${rows.length} bodies, raw ${kb(raw)}, gzip alone ${kb(gzip)}, git pack ${kb(pack)}, deltas ${kb(stored)} ` +
          `(${(stored / pack).toFixed(2)}x the pack, ${(gzip / stored).toFixed(1)}x smaller than gzip), deepest chain ${Math.max(0, ...rows.map((r) => r.depth))}; ` +
          `restore p50 ${quantile(times, 0.5).toFixed(2)} ms, p99 ${quantile(times, 0.99).toFixed(2)} ms, max ${(times.at(-1) ?? 0).toFixed(2)} ms; import ${(importMs / 1000).toFixed(1)} s`,
      );
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
