import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { findPostgresBinaries, type PostgresBinaries } from "@/tests/support/postgres-binaries";
import { PostgresClusterError } from "@/tests/support/postgres-cluster-error";
import { createPostgresDatabase, dropPostgresDatabase } from "@/tests/support/postgres-databases";
import { postgresBinOverride } from "@/tests/support/test-database-settings";

export interface PostgresClusterOptions {
  /** A folder holding initdb and pg_ctl; default REDLINE_POSTGRES_BIN, else the newest Debian install, else PATH. */
  binDir?: string;
  /** The first port tried; when it is taken, free ones are tried instead. */
  port?: number;
  /** Further server settings, passed as `-c name=value`. */
  settings?: Record<string, string>;
}

export interface PostgresCluster {
  /** postgres://redline@127.0.0.1:<port>/postgres: a superuser, no password (trust). */
  adminUrl: string;
  port: number;
  /** The temporary folder holding the data directory, the socket and the server log. */
  folder: string;
  /** A new empty database; its URL. */
  createDatabase(prefix?: string): Promise<string>;
  dropDatabase(url: string): Promise<void>;
  /** Stops the server at once and removes its folder; a second call does nothing more. */
  stop(): Promise<void>;
}

const SUPERUSER = "redline";
const PORT_ATTEMPTS = 5;
/** pg_ctl's own wait for readiness is a hang guard only, far above a start on a loaded machine. */
const PG_CTL_WAIT_SECONDS = "300";
/** A throwaway cluster: speed over durability. */
const SPEED_SETTINGS = { fsync: "off", synchronous_commit: "off", full_page_writes: "off", max_connections: "300" };
const PORT_TAKEN = /could not bind|address already in use|could not create any TCP\/IP sockets/i;
/** pg_ctl hands the server options to a shell, so anything else in them is refused rather than quoted. */
const SHELL_SAFE = /^[\w.,:/-]+$/;

interface Owner {
  uid: number;
  gid: number;
}

/** initdb and postgres refuse root, so as root the cluster belongs to nobody. */
function unprivilegedOwner(): Owner | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const passwd = fs.existsSync("/etc/passwd") ? fs.readFileSync("/etc/passwd", "utf8") : "";
  const entry = passwd.split("\n").find((line) => line.startsWith("nobody:"))?.split(":");
  const uid = Number(entry?.[2]);
  const gid = Number(entry?.[3]);
  return Number.isInteger(uid) && Number.isInteger(gid) ? { uid, gid } : { uid: 65534, gid: 65534 };
}

interface CommandResult {
  code: number | null;
  output: string;
}

function runCommand(file: string, args: string[], cwd: string, owner: Owner | undefined): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    // PGDATA, PGPORT and the like from the caller's shell must not redirect the tools.
    const env: NodeJS.ProcessEnv = { ...process.env, LC_ALL: "C" };
    for (const name of Object.keys(env)) if (name.startsWith("PG")) env[name] = undefined;
    const child = spawn(file, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"], ...owner });
    const chunks: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => chunks.push(chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output: Buffer.concat(chunks).toString("utf8").trim() }));
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address !== null ? resolve(address.port) : reject(new Error("no port assigned"))));
    });
  });
}

function serverOptions(port: number, socketDir: string, settings: Record<string, string>): string {
  const all: Record<string, string> = { listen_addresses: "127.0.0.1", unix_socket_directories: socketDir, ...SPEED_SETTINGS, ...settings };
  const flags = Object.entries(all).map(([name, value]) => {
    if (!SHELL_SAFE.test(name) || !SHELL_SAFE.test(value)) {
      throw new PostgresClusterError("unquotable", `server setting ${JSON.stringify(`${name}=${value}`)} has characters pg_ctl's command line cannot carry`);
    }
    return `-c ${name}=${value}`;
  });
  return [`-p ${port}`, ...flags].join(" ");
}

async function readLog(file: string): Promise<string> {
  return fs.promises.readFile(file, "utf8").catch(() => "(no server log)");
}

/** Starts the server on `options.port` (or a free one) and, when that is taken, on another; the port it listens on. */
async function startServer(binaries: PostgresBinaries, dataDir: string, folder: string, owner: Owner | undefined, options: PostgresClusterOptions): Promise<number> {
  const logFile = path.join(folder, "server.log");
  let port = options.port ?? (await freePort());
  for (let attempt = 1; ; attempt++) {
    await fs.promises.rm(logFile, { force: true });
    const args = ["start", "-w", "-t", PG_CTL_WAIT_SECONDS, "-D", dataDir, "-l", logFile, "-o", serverOptions(port, folder, options.settings ?? {})];
    const result = await runCommand(binaries.pgCtl, args, folder, owner);
    if (result.code === 0) return port;
    const log = await readLog(logFile);
    if (!PORT_TAKEN.test(log)) {
      throw new PostgresClusterError("start-failed", `pg_ctl start failed (${binaries.pgCtl}, exit ${result.code}):\n${result.output}\nserver log:\n${log}`);
    }
    if (attempt === PORT_ATTEMPTS) {
      throw new PostgresClusterError("port-in-use", `PostgreSQL found no free port on 127.0.0.1 in ${PORT_ATTEMPTS} attempts; the last, ${port}:\n${log}`);
    }
    port = await freePort();
  }
}

/** The postmaster's pid, the first line of postmaster.pid, while it runs. */
function postmasterPid(dataDir: string): number | undefined {
  try {
    const pid = Number(fs.readFileSync(path.join(dataDir, "postmaster.pid"), "utf8").split("\n")[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function killQuietly(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(pid, signal);
  } catch {
    // Already gone: what the kill was for.
  }
}

/** A temporary folder for a cluster, owned by the user the server runs as. */
async function clusterFolder(): Promise<ClusterPlace> {
  const folder = await fs.promises.mkdtemp(path.join(os.tmpdir(), "redline-pg-"));
  if (!SHELL_SAFE.test(folder)) {
    await fs.promises.rm(folder, { recursive: true, force: true });
    throw new PostgresClusterError("unquotable", `the temporary folder ${JSON.stringify(folder)} has characters pg_ctl's command line cannot carry; set TMPDIR to a plain path`);
  }
  const owner = unprivilegedOwner();
  if (owner) await fs.promises.chown(folder, owner.uid, owner.gid);
  return { folder, dataDir: path.join(folder, "data"), owner };
}

interface ClusterPlace {
  folder: string;
  dataDir: string;
  owner: Owner | undefined;
}

/**
 * Makes a cluster's folder, lets `fill` write its data directory (initdb, or a base backup), starts
 * the server and hands it back; on failure the folder is removed.
 */
async function launchCluster(options: PostgresClusterOptions, fill: (binaries: PostgresBinaries, place: ClusterPlace) => Promise<void>): Promise<StandbyCluster> {
  const binaries = findPostgresBinaries(options.binDir ?? postgresBinOverride);
  const place = await clusterFolder();
  const { folder, dataDir, owner } = place;
  try {
    await fill(binaries, place);
    const port = await startServer(binaries, dataDir, folder, owner, options);
    const pid = postmasterPid(dataDir);
    // Should this process end without stop(), the server must not outlive it.
    const onExit = () => {
      killQuietly(pid, "SIGQUIT");
      fs.rmSync(folder, { recursive: true, force: true, maxRetries: 5 });
    };
    process.on("exit", onExit);

    const stopCluster = async (): Promise<void> => {
      process.off("exit", onExit);
      const result = await runCommand(binaries.pgCtl, ["stop", "-w", "-t", PG_CTL_WAIT_SECONDS, "-m", "immediate", "-D", dataDir], folder, owner);
      if (result.code !== 0 && postmasterPid(dataDir) !== undefined) {
        console.warn(`pg_ctl stop failed (exit ${result.code}), killing the postmaster: ${result.output}`);
        killQuietly(pid, "SIGKILL");
      }
      await fs.promises.rm(folder, { recursive: true, force: true, maxRetries: 5 });
    };
    let stopping: Promise<void> | undefined;
    const adminUrl = `postgres://${SUPERUSER}@127.0.0.1:${port}/postgres`;
    return {
      adminUrl,
      port,
      folder,
      createDatabase: (prefix) => createPostgresDatabase(adminUrl, prefix),
      dropDatabase: (url) => dropPostgresDatabase(adminUrl, url),
      stop: () => (stopping ??= stopCluster()),
      promote: async () => {
        // -w waits until the server has left recovery and takes writes.
        const result = await runCommand(binaries.pgCtl, ["promote", "-w", "-t", PG_CTL_WAIT_SECONDS, "-D", dataDir], folder, owner);
        if (result.code !== 0) throw new PostgresClusterError("start-failed", `pg_ctl promote failed (exit ${result.code}):\n${result.output}`);
      },
    };
  } catch (error) {
    killQuietly(postmasterPid(dataDir), "SIGQUIT");
    await fs.promises.rm(folder, { recursive: true, force: true, maxRetries: 5 });
    throw error;
  }
}

/**
 * A throwaway PostgreSQL cluster in a temporary folder, listening on 127.0.0.1 only, run as an
 * unprivileged user when this process is root. Resolves once the server accepts connections.
 */
export async function startPostgresCluster(options: PostgresClusterOptions = {}): Promise<PostgresCluster> {
  return launchCluster(options, async (binaries, place) => {
    const initdb = await runCommand(
      binaries.initdb,
      ["-D", place.dataDir, "-A", "trust", "-U", SUPERUSER, "--encoding=UTF8", "--locale=C", "--lc-ctype=C.UTF-8", "--no-sync"],
      place.folder,
      place.owner,
    );
    if (initdb.code !== 0) {
      throw new PostgresClusterError("initdb-failed", `initdb failed (${binaries.initdb}, exit ${initdb.code}):\n${initdb.output}`);
    }
  });
}

/** A hot standby of `primary`: a base backup taken with pg_basebackup, streaming the primary's WAL from then on. */
export interface StandbyCluster extends PostgresCluster {
  /** Ends recovery: the standby takes writes from then on (a failover). */
  promote(): Promise<void>;
}

/**
 * Takes a base backup of `primary` (pg_basebackup over its replication connection, WAL streamed
 * alongside, `-R` writing the standby's connection settings) and starts it as a hot standby.
 */
export async function startStandbyCluster(primary: { port: number }, options: PostgresClusterOptions = {}): Promise<StandbyCluster> {
  return launchCluster({ ...options, settings: { hot_standby: "on", ...options.settings } }, async (binaries, place) => {
    const args = ["-D", place.dataDir, "-h", "127.0.0.1", "-p", String(primary.port), "-U", SUPERUSER, "-X", "stream", "-R", "-c", "fast", "--no-sync"];
    const backup = await runCommand(binaries.pgBasebackup, args, place.folder, place.owner);
    if (backup.code !== 0) throw new PostgresClusterError("start-failed", `pg_basebackup failed (exit ${backup.code}):\n${backup.output}`);
  });
}
