import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { closeStore, openStore } from "@/db/client";
import { addSubscription } from "@/db/notifications/subscriptions";
import { recordSupervisorEvent } from "@/db/operations/supervisor-events";
import { addVendor, listVendorSummaries } from "@/db/settings/vendors";
import { saveWatchlist } from "@/db/notifications/watchlists";
import { subscriptionFilterSchema } from "@/lib/notify/subscription-filter";
import { waitFor } from "@/tests/support/observe";
import { findPostgresBinaries } from "@/tests/support/postgres-binaries";
import { type PostgresCluster, startPostgresCluster, startStandbyCluster, type StandbyCluster } from "@/tests/support/postgres-cluster";
import { describePostgres, runPostgresCluster } from "@/tests/support/postgres";
import { postgresBinOverride } from "@/tests/support/test-database-settings";

/**
 * Backups of a PostgreSQL archive are the database's own: pg_dump / pg_restore for a logical copy,
 * pg_basebackup for a physical one, which a streaming standby starts from (docs/operating.md).
 * These run the commands docs/operating.md gives and check that what comes back is the archive.
 */

const run = promisify(execFile);
const tools = () => findPostgresBinaries(postgresBinOverride);

/** Every row of every table of the public schema, in key order: what a backup must give back. */
async function contents(url: string): Promise<Record<string, unknown[]>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables = await client.query<{ name: string }>("SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1");
    const out: Record<string, unknown[]> = {};
    for (const { name } of tables.rows) out[name] = (await client.query(`SELECT * FROM "${name}" ORDER BY 1`)).rows;
    const migrations = await client.query("SELECT hash, created_at FROM drizzle.__drizzle_migrations ORDER BY id");
    out["drizzle.__drizzle_migrations"] = migrations.rows;
    return out;
  } finally {
    await client.end();
  }
}

/** Rows in the tables the operator fills by hand and in the change log the triggers fill, written through Redline. */
async function fill(url: string, tag: string): Promise<void> {
  const db = await openStore(url);
  try {
    for (const slug of ["acme", "globex"]) await addVendor(db, { slug: `${slug}-${tag}`, name: `${slug} ${tag}`, platform: "statuspage", url: `https://status.${slug}.example` }, "user");
    await saveWatchlist(db, { name: `team-${tag}`, vendors: [`acme-${tag}`], components: [] });
    await addSubscription(db, { target: "mailto:oncall@example.com", format: "email", filter: subscriptionFilterSchema.parse({}), watchlist: null, digest: null });
    await recordSupervisorEvent(db, { at: new Date().toISOString(), process: "web", event: "started", detail: tag });
  } finally {
    await closeStore(db);
  }
}

describePostgres("PostgreSQL backups with the database's own tools", () => {
  let folder: string;
  let source: string;
  const made: string[] = [];

  beforeAll(async () => {
    folder = await fs.promises.mkdtemp(path.join(os.tmpdir(), "redline-dump-"));
    source = await runPostgresCluster().createDatabase("redline_dump_source");
    made.push(source);
    await fill(source, "dumped");
  });

  afterAll(async () => {
    for (const url of made) await runPostgresCluster().dropDatabase(url);
    await fs.promises.rm(folder, { recursive: true, force: true });
  });

  it("pg_dump --format=custom and pg_restore into an empty database give back every row and the migration history", async () => {
    const dump = path.join(folder, "redline.dump");
    await run(tools().pgDump, ["--format=custom", "--file", dump, source]);
    expect(fs.statSync(dump).size).toBeGreaterThan(0);

    const target = await runPostgresCluster().createDatabase("redline_dump_target");
    made.push(target);
    await run(tools().pgRestore, ["--no-owner", "--exit-on-error", "--dbname", target, dump]);
    expect(await contents(target)).toEqual(await contents(source));

    // Redline opens the restored archive as it is: nothing to migrate, the vendors there, writes go on.
    const db = await openStore(target);
    try {
      expect((await listVendorSummaries(db)).map((v) => v.slug).sort()).toEqual(["acme-dumped", "globex-dumped"]);
      await addVendor(db, { slug: "initech", name: "Initech", platform: "statuspage", url: "https://status.initech.example" }, "user");
      expect((await listVendorSummaries(db)).length).toBe(3);
    } finally {
      await closeStore(db);
    }
  });
});

describePostgres("a streaming standby started from a base backup (pg_basebackup)", () => {
  let primary: PostgresCluster;
  let standby: StandbyCluster | undefined;
  let primaryUrl: string;

  beforeAll(async () => {
    // A primary of its own: the standby replicates a whole cluster, not one database.
    primary = await startPostgresCluster({ settings: { wal_level: "replica", max_wal_senders: "4", full_page_writes: "on" } });
    primaryUrl = await primary.createDatabase("redline_primary");
    await fill(primaryUrl, "before");
  });

  afterAll(async () => {
    await standby?.stop();
    await primary?.stop();
  });

  it("holds the archive as of the backup, follows every later write, refuses writes, and takes over when promoted", async () => {
    standby = await startStandbyCluster(primary);
    const standbyUrl = new URL(primaryUrl);
    standbyUrl.port = String(standby.port);
    const replica = standbyUrl.toString();

    const slugsOn = async (url: string) => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        return (await client.query<{ slug: string }>("SELECT slug FROM vendors ORDER BY slug")).rows.map((r) => r.slug);
      } finally {
        await client.end();
      }
    };
    expect(await slugsOn(replica)).toEqual(["acme-before", "globex-before"]);

    // Written on the primary after the backup: streamed to the standby.
    await fill(primaryUrl, "after");
    // The vendors are written first: the rest of the later writes may still be on their way then.
    await waitFor("the standby to replay the primary's later writes", async () => (await slugsOn(replica)).length === 4);
    const onPrimary = JSON.stringify(await contents(primaryUrl));
    await waitFor("the standby to hold everything the primary holds", async () => JSON.stringify(await contents(replica)) === onPrimary);
    expect(await contents(replica)).toEqual(await contents(primaryUrl));

    // A standby is read-only until promoted.
    const client = new pg.Client({ connectionString: replica });
    await client.connect();
    try {
      await expect(client.query("INSERT INTO watchlists (name, created_at) VALUES ('x', '')")).rejects.toThrow(/read-only transaction/);
    } finally {
      await client.end();
    }

    // Failover: the primary is gone, the standby is promoted, Redline opens it and writes.
    await primary.stop();
    await standby.promote();
    const promoted = await openStore(replica);
    try {
      await addVendor(promoted, { slug: "initech", name: "Initech", platform: "statuspage", url: "https://status.initech.example" }, "user");
      expect((await listVendorSummaries(promoted)).length).toBe(5);
    } finally {
      await closeStore(promoted);
    }
  });
});
