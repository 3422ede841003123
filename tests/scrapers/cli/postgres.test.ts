import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { expect, it } from "vitest";
import { describePostgres, postgresAdminUrl, withPostgresDatabase } from "@/tests/support/postgres";
import { dropPostgresDatabase } from "@/tests/support/postgres-databases";
import { REDLINE_BUNDLE } from "@/tests/support/redline-bundle";

const ROOT = path.resolve(__dirname, "..", "..", "..");

/** The CLI as an operator runs it, in a process of its own; asynchronous, so the test run's cluster keeps answering. */
function redline(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [REDLINE_BUNDLE, ...args], {
      cwd: ROOT,
      env: { ...process.env, REDLINE_DATABASE_URL: "", REDLINE_ALLOW_PRIVATE_URLS: "0", ...env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** The same database with a password in its URL: the test cluster trusts local connections and ignores it. */
function withPassword(url: string): string {
  return url.replace(/^postgres:\/\/([^@:]+)@/, "postgres://$1:s3cret-pw@");
}

describePostgres("redline on PostgreSQL", () => {
  const database = withPostgresDatabase({ prefix: "redline_cli" });

  it("migrates a new database, adds a vendor and lists it, chosen by --db", async () => {
    const url = withPassword(database.url);
    const migrated = await redline(["migrate", "--db", url]);
    expect(migrated.stderr).toBe("");
    expect(migrated.code).toBe(0);
    const added = await redline(["vendors", "add", "--slug", "acme", "--name", "Acme", "--platform", "statuspage", "--url", "https://status.acme.example", "--db", url]);
    expect(added.stderr).toBe("");
    expect(added.stdout).toContain("added acme (statuspage)");
    const list = await redline(["vendors", "list", "--db", url]);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/acme\s+statuspage\s+yes\s+never\s+0\s+https:\/\/status\.acme\.example/);
    for (const run of [migrated, added, list]) expect(run.stdout + run.stderr).not.toContain("s3cret-pw");
  });

  it("takes the database from REDLINE_DATABASE_URL without --db, and a --db file wins over it", async () => {
    const env = { REDLINE_DATABASE_URL: withPassword(database.url) };
    const added = await redline(["vendors", "add", "--slug", "beta", "--name", "Beta", "--platform", "statuspage", "--url", "https://status.beta.example"], env);
    expect(added.stderr).toBe("");
    expect((await redline(["vendors", "list"], env)).stdout).toMatch(/^beta\s+statuspage\s+yes/m);
    const file = path.join(os.tmpdir(), `redline-cli-${process.pid}-${Date.now()}.db`);
    try {
      expect((await redline(["vendors", "sync-catalog", "--db", file], env)).code).toBe(0);
      expect((await redline(["vendors", "list", "--db", file], env)).stdout).not.toMatch(/^beta\s/m);
    } finally {
      for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(`${file}${suffix}`, { force: true });
    }
  });

  it("refuses a file backup of a PostgreSQL database, naming it without its password", async () => {
    const refused = await redline(["backup", path.join(ROOT, "data", "never-made-backup.db"), "--db", withPassword(database.url)]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/PostgreSQL database: back it up with pg_dump/);
    expect(refused.stderr).not.toContain("s3cret-pw");
  });

  it("refuses to migrate a UTF8 database whose LC_CTYPE is C, the reason on the first line and the migration after it", async () => {
    const name = `redline_cli_ctype_${randomBytes(6).toString("hex")}`;
    const admin = new pg.Client({ connectionString: postgresAdminUrl() });
    await admin.connect();
    try {
      await admin.query(`CREATE DATABASE ${name} ENCODING 'UTF8' LC_CTYPE 'C' LC_COLLATE 'C' TEMPLATE template0`);
    } finally {
      await admin.end();
    }
    const url = new URL(postgresAdminUrl());
    url.pathname = `/${name}`;
    try {
      const refused = await redline(["migrate", "--db", url.toString()]);
      expect(refused.code).toBe(1);
      const [first, second] = refused.stderr.split("\n");
      expect(first).toMatch(/^redline: store: the database is UTF8 with LC_CTYPE C, .*create it UTF8 with a UTF-8 LC_CTYPE/);
      expect(second).toBe("  while applying the migrations in db/migrations-postgres (0001_search.sql)");
      expect(refused.stdout).toBe("");
    } finally {
      await dropPostgresDatabase(postgresAdminUrl(), url.toString());
    }
  });
});
