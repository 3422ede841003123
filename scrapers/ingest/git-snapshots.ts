import { execFileSync, spawn } from "node:child_process";
import path from "node:path";
import { ImportError, type SnapshotSource } from "@/scrapers/ingest/import-snapshots";
import { epochSecondsToUtc } from "@/lib/time";

interface FileVersion {
  commit: string;
  blob: string;
  observedAt: string;
}

const ZERO_OID = /^0+$/;

/**
 * The versions of one file across a git-scraping repository's history, oldest first, with the
 * commit time as observation time. Fails before anything is written when the repo or path is wrong.
 */
export function listFileVersions(repoDir: string, pathInRepo: string): FileVersion[] {
  let log: string;
  try {
    execFileSync("git", ["-C", repoDir, "rev-parse", "--git-dir"], { stdio: "pipe" });
    log = execFileSync(
      "git",
      ["-C", repoDir, "log", "--reverse", "--no-renames", "--raw", "--no-abbrev", "--format=@%H %ct", "--", pathInRepo],
      { encoding: "utf8", maxBuffer: 512 * 1024 * 1024, stdio: ["ignore", "pipe", "pipe"] },
    );
  } catch (error) {
    const stderr = (error as { stderr?: Buffer | string }).stderr?.toString().trim().split("\n")[0];
    throw new ImportError(`import-git: ${repoDir} is not a readable git repository${stderr ? ` (${stderr})` : ""}`, { cause: error });
  }
  const versions: FileVersion[] = [];
  let commit = "";
  let observedAt = "";
  for (const line of log.split("\n")) {
    if (line.startsWith("@")) {
      const [sha = "", time = ""] = line.slice(1).split(" ");
      commit = sha;
      observedAt = epochSecondsToUtc(time);
    } else if (line.startsWith(":")) {
      const fields = line.slice(1).split(/\s+/);
      const blob = fields[3] ?? "";
      if (blob !== "" && !ZERO_OID.test(blob)) versions.push({ commit, blob, observedAt });
    }
  }
  if (versions.length === 0) throw new ImportError(`import-git: no commit in ${repoDir} touches ${pathInRepo}`);
  return versions;
}

/** Stream the blobs through one `git cat-file --batch`, yielding each version as a snapshot. */
export async function* readFileVersions(repoDir: string, pathInRepo: string, versions: readonly FileVersion[]): AsyncGenerator<SnapshotSource> {
  const git = spawn("git", ["-C", repoDir, "cat-file", "--batch"], { stdio: ["pipe", "pipe", "pipe"] });
  git.stdin.end(versions.map((v) => v.blob).join("\n") + "\n");
  const source = path.basename(pathInRepo);
  let buffer: Buffer = Buffer.alloc(0);
  let index = 0;
  const exited = new Promise<void>((resolve) => git.on("close", () => resolve()));
  for await (const chunk of git.stdout as AsyncIterable<Buffer>) {
    buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
    for (;;) {
      const eol = buffer.indexOf(10);
      if (eol < 0) break;
      const header = buffer.subarray(0, eol).toString("utf8");
      const [, type, sizeText] = header.split(" ");
      if (type !== "blob" || sizeText === undefined) throw new ImportError(`import-git: unexpected object ${header}`);
      const size = Number(sizeText);
      if (buffer.length < eol + 1 + size + 1) break;
      const body = Buffer.from(buffer.subarray(eol + 1, eol + 1 + size));
      buffer = buffer.subarray(eol + 1 + size + 1);
      const version = versions[index];
      index += 1;
      if (!version) throw new ImportError("import-git: git returned more objects than asked for");
      yield { label: `${version.commit}:${pathInRepo}`, observedAt: version.observedAt, source, read: () => body };
    }
  }
  await exited;
  if (index !== versions.length) throw new ImportError(`import-git: git returned ${index} of ${versions.length} versions of ${pathInRepo}`);
}
