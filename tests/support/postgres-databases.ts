import { randomBytes } from "node:crypto";
import pg from "pg";
import { PostgresClusterError } from "@/tests/support/postgres-cluster-error";

/** The longest identifier PostgreSQL keeps whole. */
const MAX_NAME_LENGTH = 63;

function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

function databaseOf(url: string): string {
  return decodeURIComponent(new URL(url).pathname.slice(1));
}

async function asAdmin(adminUrl: string, what: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  try {
    await client.connect();
    await client.query(statement);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new PostgresClusterError("database-failed", `could not ${what} on ${new URL(adminUrl).host}: ${reason}`, { cause: error });
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** A new empty database named `<prefix>_<random>` on the server of `adminUrl`; its URL. */
export async function createPostgresDatabase(adminUrl: string, prefix = "redline_test", template?: string): Promise<string> {
  const suffix = randomBytes(6).toString("hex");
  const stem = prefix.toLowerCase().replace(/[^a-z0-9_]+/g, "_").slice(0, MAX_NAME_LENGTH - suffix.length - 1);
  const name = `${stem}_${suffix}`;
  // Copying template1's files beats logging each of its blocks when fsync is off (PostgreSQL 15+).
  const from = template === undefined ? "" : ` TEMPLATE ${quoteIdentifier(template)}`;
  await asAdmin(adminUrl, `create database ${name}`, `CREATE DATABASE ${quoteIdentifier(name)}${from} STRATEGY = FILE_COPY`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Drops the database of `url`, closing whatever is still connected to it. */
export async function dropPostgresDatabase(adminUrl: string, url: string): Promise<void> {
  const name = databaseOf(url);
  if (name === databaseOf(adminUrl)) {
    throw new PostgresClusterError("database-failed", `will not drop ${name}: the admin connection's own database`);
  }
  await asAdmin(adminUrl, `drop database ${name}`, `DROP DATABASE IF EXISTS ${quoteIdentifier(name)} WITH (FORCE)`);
}
