import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describePostgres, postgresAdminUrl, withPostgresDatabase } from "@/tests/support/postgres";
import { startPostgresCluster, type PostgresCluster } from "@/tests/support/postgres-cluster";
import { PostgresClusterError } from "@/tests/support/postgres-cluster-error";
import { createPostgresDatabase, dropPostgresDatabase } from "@/tests/support/postgres-databases";

async function query<Row extends pg.QueryResultRow>(url: string, text: string): Promise<Row[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<Row>(text)).rows;
  } finally {
    await client.end();
  }
}

async function refusal(url: string): Promise<string | undefined> {
  try {
    await query(url, "SELECT 1");
    return undefined;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code;
  }
}

describePostgres("the run's PostgreSQL cluster", () => {
  it("answers on 127.0.0.1 at the port of its URL, as PostgreSQL 15 or later", async () => {
    const adminUrl = postgresAdminUrl();
    const [row] = await query<{ address: string; port: number; version: string }>(
      adminUrl,
      "SELECT host(inet_server_addr()) AS address, inet_server_port() AS port, current_setting('server_version_num') AS version",
    );
    expect(new URL(adminUrl).hostname).toBe("127.0.0.1");
    expect(row?.address).toBe("127.0.0.1");
    expect(row?.port).toBe(Number(new URL(adminUrl).port));
    expect(Number(row?.version)).toBeGreaterThanOrEqual(150_000);
  });

  it("gives each created database its own tables", async () => {
    const adminUrl = postgresAdminUrl();
    const first = await createPostgresDatabase(adminUrl, "isolation");
    const second = await createPostgresDatabase(adminUrl, "isolation");
    try {
      expect(first).not.toBe(second);
      await query(first, "CREATE TABLE only_here (id integer)");
      const tablesIn = async (url: string) =>
        (await query<{ name: string }>(url, "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public'")).map((row) => row.name);
      expect(await tablesIn(first)).toEqual(["only_here"]);
      expect(await tablesIn(second)).toEqual([]);
    } finally {
      await dropPostgresDatabase(adminUrl, first);
      await dropPostgresDatabase(adminUrl, second);
    }
  });

  it("drops a database even while a client is still connected to it", async () => {
    const adminUrl = postgresAdminUrl();
    const url = await createPostgresDatabase(adminUrl, "dropped");
    const lingering = new pg.Client({ connectionString: url });
    await lingering.connect();
    const ended = new Promise<void>((resolve) => lingering.on("error", () => resolve()));
    await dropPostgresDatabase(adminUrl, url);
    await ended;
    expect(await refusal(url)).toBe("3D000");
    await lingering.end().catch(() => undefined);
  });
});

describePostgres("a database per test", () => {
  const database = withPostgresDatabase({ prefix: "per_test", perTest: true });
  const seen: string[] = [];

  it("is created for the first test", async () => {
    seen.push(database.url);
    expect(await query(database.url, "SELECT 1 AS one")).toEqual([{ one: 1 }]);
  });

  it("is another for the next, the first one dropped", async () => {
    expect(seen).toHaveLength(1);
    expect(database.url).not.toBe(seen[0]);
    expect(await refusal(seen[0] ?? "")).toBe("3D000");
  });
});

describePostgres("a cluster of its own", () => {
  let cluster: PostgresCluster;
  beforeAll(async () => {
    cluster = await startPostgresCluster();
  });
  afterAll(async () => {
    await cluster.stop();
  });

  it("starts beside the run's cluster, on another port, and both answer", async () => {
    expect(cluster.port).not.toBe(Number(new URL(postgresAdminUrl()).port));
    expect(await query(cluster.adminUrl, "SELECT 1 AS one")).toEqual([{ one: 1 }]);
    expect(await query(postgresAdminUrl(), "SELECT 1 AS one")).toEqual([{ one: 1 }]);
  });

  it("keeps its data, socket and log in one temporary folder, removed by stop() along with the server", async () => {
    const own = await startPostgresCluster();
    expect(fs.existsSync(path.join(own.folder, "data", "PG_VERSION"))).toBe(true);
    expect(fs.existsSync(path.join(own.folder, `.s.PGSQL.${own.port}`))).toBe(true);
    expect(path.dirname(own.folder)).toBe(os.tmpdir());
    await own.stop();
    expect(fs.existsSync(own.folder)).toBe(false);
    expect(await refusal(own.adminUrl)).toBe("ECONNREFUSED");
    await own.stop();
  });

  it("moves to a free port when the one asked for is taken", async () => {
    const squatter = net.createServer();
    await new Promise<void>((resolve) => squatter.listen(0, "127.0.0.1", resolve));
    const address = squatter.address();
    const taken = typeof address === "object" && address !== null ? address.port : 0;
    try {
      const moved = await startPostgresCluster({ port: taken });
      try {
        expect(moved.port).not.toBe(taken);
        expect(await query(moved.adminUrl, "SELECT 1 AS one")).toEqual([{ one: 1 }]);
      } finally {
        await moved.stop();
      }
    } finally {
      await new Promise((resolve) => squatter.close(resolve));
    }
  });
});

describe("a cluster that cannot start", () => {
  it("names the package to install when the binaries are missing", async () => {
    const missing = await startPostgresCluster({ binDir: "/nonexistent/postgresql/bin" }).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(PostgresClusterError);
    expect((missing as PostgresClusterError).kind).toBe("binaries-not-found");
    expect((missing as PostgresClusterError).message).toContain("apt-get install -y postgresql");
  });

  it("reports initdb's own output when initdb fails, and leaves no folder behind", async () => {
    const binDir = fs.mkdtempSync(path.join(os.tmpdir(), "redline-fake-pg-"));
    try {
      fs.chmodSync(binDir, 0o755);
      fs.writeFileSync(path.join(binDir, "initdb"), "#!/bin/sh\necho 'initdb: error: the disk is made of cheese' >&2\nexit 1\n", { mode: 0o755 });
      fs.writeFileSync(path.join(binDir, "pg_ctl"), "#!/bin/sh\nexit 1\n", { mode: 0o755 });
      const before = new Set(fs.readdirSync(os.tmpdir()).filter((name) => name.startsWith("redline-pg-")));
      const failed = await startPostgresCluster({ binDir }).catch((error: unknown) => error);
      expect(failed).toBeInstanceOf(PostgresClusterError);
      expect((failed as PostgresClusterError).kind).toBe("initdb-failed");
      expect((failed as PostgresClusterError).message).toContain("the disk is made of cheese");
      const left = fs.readdirSync(os.tmpdir()).filter((name) => name.startsWith("redline-pg-") && !before.has(name));
      expect(left).toEqual([]);
    } finally {
      fs.rmSync(binDir, { recursive: true, force: true });
    }
  });
});
