/**
 * A git-scraping repository made from a list of snapshots: each committed in order, dated at its
 * observation time, as a scraper that commits what it fetched would have left it. Its pack after
 * `git gc --aggressive` is the size such archives reach, the storage benchmark's yardstick.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

export interface RepoSnapshot {
  observedAt: string;
  /** The file's path in the repository. */
  name: string;
  read(): Uint8Array;
}

/** Neither the user's nor the system's git configuration changes what is measured. */
const GIT_ENV = { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" };

function git(repoDir: string, args: string[], input?: Buffer): string {
  return execFileSync("git", ["-C", repoDir, ...args], { env: GIT_ENV, input, encoding: "utf8", maxBuffer: 64 * 1024 * 1024, stdio: ["pipe", "pipe", "pipe"] });
}

function fastImportStream(snapshots: readonly RepoSnapshot[]): Buffer {
  const chunks: Buffer[] = [];
  snapshots.forEach((s, i) => {
    const when = `${Math.floor(Date.parse(s.observedAt) / 1000)} +0000`;
    const message = `snapshot ${i + 1}: ${s.name} at ${s.observedAt}\n`;
    const body = s.read();
    chunks.push(
      Buffer.from(
        `commit refs/heads/main\nauthor Scraper <scraper@example.invalid> ${when}\ncommitter Scraper <scraper@example.invalid> ${when}\n` +
          `data ${Buffer.byteLength(message)}\n${message}M 100644 inline ${s.name}\ndata ${body.byteLength}\n`,
      ),
      Buffer.from(body),
      Buffer.from("\n"),
    );
  });
  return Buffer.concat(chunks);
}

/** Commit every snapshot, in order, into a new repository at `repoDir` (its HEAD on the last). */
export function commitSnapshots(repoDir: string, snapshots: readonly RepoSnapshot[]): void {
  fs.mkdirSync(repoDir, { recursive: true });
  execFileSync("git", ["init", "-q", "-b", "main", repoDir], { env: GIT_ENV, stdio: "pipe" });
  git(repoDir, ["fast-import", "--quiet"], fastImportStream(snapshots));
}

/** `git gc --aggressive`, then the bytes of the repository's packs. */
export function aggressivePackBytes(repoDir: string): number {
  git(repoDir, ["gc", "--aggressive", "--prune=now", "--quiet"]);
  const packDir = path.join(repoDir, ".git", "objects", "pack");
  return fs
    .readdirSync(packDir)
    .filter((f) => f.endsWith(".pack"))
    .reduce((n, f) => n + fs.statSync(path.join(packDir, f)).size, 0);
}
