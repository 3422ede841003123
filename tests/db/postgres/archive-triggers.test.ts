import { setTimeout as pause } from "node:timers/promises";
import { Client } from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { closeDatabase, openDatabase, type RedlineDb } from "@/db/client";
import { describePostgres, runPostgresCluster } from "@/tests/support/postgres";
import { bothDialects, type MigratedPostgres, migratedPostgres } from "@/tests/support/postgres-schema";

interface Change {
  vendorSlug: string | null;
  providerId: string | null;
  kinds: unknown;
}

const CHANGES = "SELECT vendor_slug AS \"vendorSlug\", provider_id AS \"providerId\", kinds FROM archive_changes ORDER BY seq";
const NOW = "2026-05-01T00:00:00.000Z";

describePostgres("PostgreSQL archive triggers", () => {
  let cluster: ReturnType<typeof runPostgresCluster>;

  beforeAll(async () => {
    cluster = runPostgresCluster();
  });

  afterAll(async () => {
  });

  async function pair(): Promise<{ sqlite: RedlineDb; pg: MigratedPostgres; run: ReturnType<typeof bothDialects>; close: () => Promise<void> }> {
    const sqlite = openDatabase(":memory:");
    const pg = await migratedPostgres(await cluster.createDatabase("triggers"));
    return {
      sqlite,
      pg,
      run: bothDialects(sqlite, pg.pool),
      close: async () => {
        closeDatabase(sqlite);
        await pg.close();
      },
    };
  }

  async function stateOf(sqlite: RedlineDb, pg: MigratedPostgres) {
    const sqliteChanges = sqlite.$client
      .prepare<[], Change & { kinds: string | null }>(CHANGES)
      .all()
      .map((c) => ({ ...c, kinds: c.kinds === null ? null : (JSON.parse(c.kinds) as unknown) }));
    const sqliteRevision = sqlite.$client.prepare<[], { revision: number }>("SELECT revision FROM archive_revision WHERE id = 1").get()?.revision ?? 0;
    const pgChanges = (await pg.pool.query<Change & Record<string, unknown>>(CHANGES)).rows;
    const pgRevision = Number((await pg.pool.query<{ revision: string }>("SELECT revision FROM archive_revision WHERE id = 1")).rows[0]?.revision);
    return { sqlite: { changes: sqliteChanges, revision: sqliteRevision }, postgres: { changes: pgChanges, revision: pgRevision } };
  }

  it("raise the revision and name whom each vendor and version change concerns, as SQLite's do", async () => {
    const { sqlite, pg, run, close } = await pair();
    try {
      // A new SQLite archive starts at 1 (its migration 0021 raised it): the rises are compared.
      const start = await stateOf(sqlite, pg);
      await run("INSERT INTO vendors (slug, name, platform, created_at) VALUES (?, ?, 'statuspage', ?)", ["acme", "Acme", NOW]);
      await run("INSERT INTO vendors (slug, name, platform, created_at) VALUES (?, ?, 'statuspage', ?)", ["globex", "Globex", NOW]);
      await run("INSERT INTO captures (vendor_id, source, platform, observed_at, outcome, hash, recorded_at) VALUES (1, 'feed', 'statuspage', ?, 'ok', 'h', ?)", [NOW, NOW]);
      await run(
        "INSERT INTO incidents (vendor_id, provider_id, kind, title, presence, source, first_seen_at, last_seen_at, observed_hash, version_count, last_changed_at) VALUES (1, 'inc-1', 'incident', 'API errors', 'listed', 'feed', ?, ?, 'h', 1, ?)",
        [NOW, NOW, NOW],
      );
      const version = "INSERT INTO incident_versions (incident_id, vendor_id, seq, observed_at, hash, kinds, content, capture_id) VALUES (1, 1, ?, ?, 'h', ?, ?, 1)";
      await run(version, [1, NOW, JSON.stringify(["incident-new"]), Buffer.from([1])]);
      await run(version, [2, NOW, JSON.stringify(["title-changed", "impact-raised"]), Buffer.from([1])]);
      // Kinds changed: the change is named under the old kinds and the new ones.
      await run("UPDATE incident_versions SET kinds = ? WHERE seq = 2", [JSON.stringify(["title-changed"])]);
      // Neither incident nor kinds changed: the new ones only.
      await run("UPDATE incident_versions SET hash = 'h2' WHERE seq = 2");
      await run("UPDATE vendors SET name = 'Acme Cloud' WHERE slug = 'acme'");
      await run("UPDATE vendors SET enabled = NOT enabled WHERE slug = 'acme'");
      // A column the pages do not show: no change.
      await run("UPDATE vendors SET homepage = 'https://acme.test' WHERE slug = 'acme'");
      await run("UPDATE vendors SET slug = 'acme-cloud' WHERE slug = 'acme'");
      await run("DELETE FROM incident_versions WHERE seq = 2");
      await run("DELETE FROM vendors WHERE slug = 'globex'");

      const { sqlite: lite, postgres } = await stateOf(sqlite, pg);
      expect(postgres.changes).toEqual(lite.changes);
      expect(postgres.revision - start.postgres.revision).toBe(11);
      expect(lite.revision - start.sqlite.revision).toBe(11);
      expect(postgres.changes.map((c) => `${c.vendorSlug ?? "?"}/${c.providerId ?? "*"}`)).toEqual([
        "acme/*",
        "globex/*",
        "acme/inc-1",
        "acme/inc-1",
        "acme/inc-1",
        "acme/inc-1",
        "acme/inc-1",
        "acme/*",
        "acme/*",
        "acme/*",
        "acme-cloud/*",
        "acme-cloud/inc-1",
        "globex/*",
      ]);
      expect(postgres.changes.slice(4, 6).map((c) => c.kinds)).toEqual([["title-changed", "impact-raised"], ["title-changed"]]);
    } finally {
      await close();
    }
  });

  it("keep the newest 4,096 changes", async () => {
    const pg = await migratedPostgres(await cluster.createDatabase("ring"));
    const client = await pg.pool.connect();
    try {
      await client.query("INSERT INTO vendors (slug, name, platform, created_at) VALUES ('acme', 'Acme', 'statuspage', $1)", [NOW]);
      await client.query("BEGIN");
      for (let i = 0; i < 4_100; i += 1) await client.query("UPDATE vendors SET name = $1", [`Acme ${i}`]);
      await client.query("COMMIT");
      const kept = await client.query<{ n: string; first: string; last: string }>("SELECT count(*) AS n, min(seq) AS first, max(seq) AS last FROM archive_changes");
      expect(kept.rows[0]).toEqual({ n: "4096", first: "6", last: "4101" });
      const revision = await client.query<{ revision: string }>("SELECT revision FROM archive_revision");
      expect(revision.rows[0]?.revision).toBe("4101");
    } finally {
      client.release();
      await pg.close();
    }
  });

  it("hold a second writer at the revision row until the first commits, so changes commit in seq order", async () => {
    const url = await cluster.createDatabase("order");
    const pg = await migratedPostgres(url);
    const first = new Client({ connectionString: url });
    const second = new Client({ connectionString: url });
    await Promise.all([first.connect(), second.connect()]);
    try {
      const insert = "INSERT INTO vendors (slug, name, platform, created_at) VALUES ($1, $1, 'statuspage', $2)";
      await first.query("BEGIN");
      await first.query(insert, ["first", NOW]);
      const secondPid = (await second.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]?.pid;
      await second.query("BEGIN");
      const secondInsert = second.query(insert, ["second", NOW]);
      const lockWait = async () => {
        for (;;) {
          const waiting = await pg.pool.query("SELECT 1 FROM pg_stat_activity WHERE pid = $1 AND wait_event_type = 'Lock'", [secondPid]);
          if (waiting.rowCount === 1) return "waits for the first to commit";
          await pause(5);
        }
      };
      // Free to go on, the second could commit first while its change's seq is after the first's.
      expect(await Promise.race([lockWait(), secondInsert.then(() => "went on")])).toBe("waits for the first to commit");
      await first.query("COMMIT");
      await secondInsert;
      await second.query("COMMIT");
      const changes = await pg.pool.query<{ vendorSlug: string }>("SELECT vendor_slug AS \"vendorSlug\" FROM archive_changes ORDER BY seq");
      expect(changes.rows.map((c) => c.vendorSlug)).toEqual(["first", "second"]);
    } finally {
      await Promise.all([first.end(), second.end()]);
      await pg.close();
    }
  });
});
