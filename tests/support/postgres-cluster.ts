import { type SpawnOptions, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";

/**
 * A throwaway PostgreSQL cluster for tests: a temporary data folder, a local port, no durability.
 * (A minimal stand-in with the API of the harness that is written beside it: that one replaces it.)
 */
export interface PostgresCluster {
  adminUrl: string;
  createDatabase(prefix?: string): Promise<string>;
  dropDatabase(url: string): Promise<void>;
  stop(): Promise<void>;
}

export class PostgresClusterError extends Error {
  readonly kind = "postgres-cluster";
}

/** initdb refuses to run as root: the cluster is run as `nobody` then. */
const NOBODY = 65534;

function binDir(): string {
  const fromEnv = process.env.REDLINE_POSTGRES_BIN;
  if (fromEnv) return fromEnv;
  const root = "/usr/lib/postgresql";
  const versions = fs.existsSync(root) ? fs.readdirSync(root).filter((v) => fs.existsSync(path.join(root, v, "bin", "initdb"))) : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (!newest) throw new PostgresClusterError("PostgreSQL binaries not found: apt-get install -y postgresql (or set REDLINE_POSTGRES_BIN)");
  return path.join(root, newest, "bin");
}

function run(command: string, args: string[], options: SpawnOptions): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", (error) => reject(new PostgresClusterError(`${path.basename(command)} did not start: ${error.message}`, { cause: error })));
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new PostgresClusterError(`${path.basename(command)} exited with ${String(code)}: ${output.trim()}`))));
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export async function startPostgresCluster(): Promise<PostgresCluster> {
  const bin = binDir();
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "redline-pg-"));
  const data = path.join(folder, "data");
  const asUser: SpawnOptions = process.getuid?.() === 0 ? { uid: NOBODY, gid: NOBODY } : {};
  if (asUser.uid !== undefined) fs.chownSync(folder, NOBODY, NOBODY);
  await run(path.join(bin, "initdb"), ["-D", data, "-A", "trust", "-U", "redline", "--encoding=UTF8", "--locale=C.UTF-8"], asUser);
  let port = 0;
  for (let attempt = 1; ; attempt += 1) {
    port = await freePort();
    const settings = `-c listen_addresses=127.0.0.1 -c port=${port} -c unix_socket_directories=${folder} -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
    try {
      await run(path.join(bin, "pg_ctl"), ["start", "-w", "-D", data, "-l", path.join(folder, "log"), "-o", settings], asUser);
      break;
    } catch (error) {
      // Another process may have taken the port between the probe and the start.
      if (attempt >= 3) throw error;
    }
  }
  const urlOf = (database: string) => `postgres://redline@127.0.0.1:${port}/${database}`;
  const admin = async <T>(work: (client: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: urlOf("postgres") });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  };
  let created = 0;
  return {
    adminUrl: urlOf("postgres"),
    createDatabase: async (prefix = "redline_test") => {
      created += 1;
      const name = `${prefix}_${process.pid}_${created}`;
      await admin((client) => client.query(`CREATE DATABASE "${name}"`));
      return urlOf(name);
    },
    dropDatabase: async (url) => {
      const name = new URL(url).pathname.slice(1);
      await admin((client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
    stop: async () => {
      await run(path.join(bin, "pg_ctl"), ["stop", "-m", "immediate", "-D", data], asUser);
      fs.rmSync(folder, { recursive: true, force: true });
    },
  };
}
