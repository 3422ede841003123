import fs from "node:fs";
import path from "node:path";
import { PostgresClusterError } from "@/tests/support/postgres-cluster-error";

export interface PostgresBinaries {
  dir: string;
  initdb: string;
  pgCtl: string;
  /** The client tools beside them: backups and restores. */
  pgBasebackup: string;
  pgDump: string;
  pgRestore: string;
}

const DEBIAN_ROOT = "/usr/lib/postgresql";
const INSTALL_HINT = "install Debian's postgresql (apt-get install -y postgresql) or set REDLINE_POSTGRES_BIN to a folder holding initdb and pg_ctl";

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

function binariesIn(dir: string): PostgresBinaries | undefined {
  const initdb = path.join(dir, "initdb");
  const pgCtl = path.join(dir, "pg_ctl");
  if (!isExecutable(initdb) || !isExecutable(pgCtl)) return undefined;
  return { dir, initdb, pgCtl, pgBasebackup: path.join(dir, "pg_basebackup"), pgDump: path.join(dir, "pg_dump"), pgRestore: path.join(dir, "pg_restore") };
}

/** Debian installs each major version side by side; the newest wins. */
function newestDebianBinaries(): PostgresBinaries | undefined {
  if (!fs.existsSync(DEBIAN_ROOT)) return undefined;
  const versions = fs
    .readdirSync(DEBIAN_ROOT)
    .filter((name) => /^\d+(\.\d+)?$/.test(name))
    .sort((a, b) => Number(b) - Number(a));
  for (const version of versions) {
    const found = binariesIn(path.join(DEBIAN_ROOT, version, "bin"));
    if (found) return found;
  }
  return undefined;
}

/** initdb and pg_ctl from `override`, else the newest /usr/lib/postgresql/<version>/bin, else PATH. */
export function findPostgresBinaries(override?: string): PostgresBinaries {
  if (override !== undefined) {
    const found = binariesIn(path.resolve(override));
    if (found) return found;
    throw new PostgresClusterError("binaries-not-found", `PostgreSQL binaries not found: no initdb and pg_ctl in ${override} (REDLINE_POSTGRES_BIN); ${INSTALL_HINT}`);
  }
  const debian = newestDebianBinaries();
  if (debian) return debian;
  for (const dir of (process.env.PATH ?? "").split(path.delimiter).filter((entry) => entry !== "")) {
    const found = binariesIn(dir);
    if (found) return found;
  }
  throw new PostgresClusterError("binaries-not-found", `PostgreSQL binaries not found (no initdb and pg_ctl in ${DEBIAN_ROOT}/*/bin or on PATH): ${INSTALL_HINT}`);
}
