import { describe, expect, it } from "vitest";
import { queueJob } from "@/db/operations/derivation-jobs";
import { ensureVendor } from "@/db/settings/vendors";
import { statingOnly } from "@/lib/derive/source-profile";
import type { Incident } from "@/lib/incident";
import type { PresenceRule } from "@/lib/derive/presence";
import { ingestSnapshot } from "@/scrapers/ingest/ingest-snapshot";
import type { Platform } from "@/scrapers/platforms/platform";
import { unpackVersionContent } from "@/db/history/version-content";
import { countRows, freshDatabase, queryRow, queryRows, sqlOf } from "@/tests/support/database";
import { makeIncident, makeUpdate } from "@/tests/support/incidents";
import { runPendingJobs } from "@/scrapers/rederive/job-runner";
import { checkSearchIndex } from "@/tests/support/search-layout";
import { testDatabaseDialect } from "@/tests/support/test-database-settings";
import { makeTestPlatform, snapshotBody } from "@/tests/support/test-platform";

async function setup(presence: PresenceRule = { kind: "active" }) {
  const db = await freshDatabase();
  const platform = makeTestPlatform(presence);
  const vendor = await ensureVendor(db, { slug: "acme", name: "Acme", platform: platform.name });
  let minute = 0;
  const capture = (incidents: Incident[] | string, platformOverride: Platform = platform) => {
    minute += 10;
    const body = typeof incidents === "string" ? Buffer.from(incidents) : snapshotBody(incidents);
    const observedAt = new Date(Date.UTC(2026, 2, 1, 10, minute)).toISOString();
    // Each format is read from an endpoint of its own.
    const source = platformOverride.name === platform.name ? "feed.json" : `${platformOverride.name}.json`;
    return ingestSnapshot(db, { vendor, platform: platformOverride, source, observedAt, body }, (name) => (name === platformOverride.name ? platformOverride : platform));
  };
  const versions = async (providerId = "inc1") =>
    (
      await queryRows<{ seq: number; kinds: string; content: Buffer }>(
        db,
        `SELECT v.seq, v.kinds, v.content FROM incident_versions v JOIN incidents i ON i.id = v.incident_id
         WHERE i.provider_id = ? ORDER BY v.seq`,
        providerId,
      )
    ).map((row) => ({ seq: row.seq, kinds: JSON.parse(row.kinds) as string[], changes: unpackVersionContent(row.content).changes as Array<{ field: string }> }));
  return { db, vendor, platform, capture, versions };
}

describe("recording captures", () => {
  it("stores one version for the same payload fetched twice", async () => {
    const { capture, versions } = await setup();
    await capture([makeIncident()]);
    const second = await capture([makeIncident()]);
    expect(second.versionsAdded).toBe(0);
    expect((await versions())).toHaveLength(1);
  });

  it("adds no version when only the order of components and updates changed", async () => {
    const { capture, versions } = await setup();
    const updates = [makeUpdate(), makeUpdate({ id: "u2", body: "Identified.", displayAt: "2026-03-01T10:20:00.000Z" })];
    const components = [{ id: "api", name: "API" }, { id: "web", name: "Web" }];
    await capture([makeIncident({ updates, components })]);
    await capture([makeIncident({ updates: [...updates].reverse(), components: [...components].reverse() })]);
    expect((await versions())).toHaveLength(1);
  });

  it("records an empty or unparseable fetch as a failed capture that changes nothing and loses no incident", async () => {
    const { db, capture, versions } = await setup();
    await capture([makeIncident()]);
    const empty = await capture("");
    const broken = await capture('{"incidents": [');
    expect(empty.outcome).toBe("failed");
    expect(broken.outcome).toBe("failed");
    await capture([makeIncident()]);
    expect((await versions())).toHaveLength(1);
    const presence = await queryRow<{ presence: string }>(db, "SELECT presence FROM incidents");
    expect(presence?.presence).toBe("listed");
    expect(await countRows(db, "captures")).toBe(4);
  });

  it("records a payload that breaks the schema as an invalid capture with the failing path", async () => {
    const { capture, versions } = await setup();
    await capture([makeIncident()]);
    const result = await capture(JSON.stringify({ incidents: [{ ...makeIncident(), startedAt: "yesterday" }] }));
    expect(result.outcome).toBe("invalid");
    expect((await versions())).toHaveLength(1);
  });

  it("names exactly the changed field in the new version", async () => {
    const { capture, versions } = await setup();
    await capture([makeIncident()]);
    await capture([makeIncident({ impact: "major" })]);
    const [, second] = (await versions());
    expect(second?.changes.map((c) => c.field)).toEqual(["impact"]);
    expect(second?.kinds).toEqual(["impact-escalated"]);
  });

  it("adds nothing when the same capture is recorded twice", async () => {
    const { db, vendor, platform } = await setup();
    const body = snapshotBody([makeIncident()]);
    const input = { vendor, platform, source: "feed.json", observedAt: "2026-03-01T10:00:00.000Z", body };
    await ingestSnapshot(db, input);
    const again = await ingestSnapshot(db, input);
    expect(again.duplicate).toBe(true);
    expect(await countRows(db, "captures")).toBe(1);
    expect(await countRows(db, "incident_versions")).toBe(1);
  });

  it("keeps one compressed copy of a body fetched many times, in one run of five observations", async () => {
    const { db, capture } = await setup();
    for (let i = 0; i < 5; i += 1) await capture([makeIncident()]);
    expect(await countRows(db, "captures")).toBe(1);
    expect(await queryRow(db, "SELECT observations FROM captures")).toEqual({ observations: 5 });
    expect(await countRows(db, "capture_bodies")).toBe(1);
  });

  it("writes nothing of a capture whose recording fails midway", async () => {
    const { db, vendor, platform } = await setup();
    await db.connection.exec(sqlOf(db, {
      sqlite: `CREATE TEMP TRIGGER crash AFTER INSERT ON incident_versions WHEN NEW.seq = 1 AND NEW.id > 1
      BEGIN SELECT RAISE(ABORT, 'simulated crash'); END`,
      postgres: `CREATE FUNCTION crash() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'simulated crash'; END $$;
      CREATE TRIGGER crash AFTER INSERT ON incident_versions FOR EACH ROW WHEN (NEW.seq = 1 AND NEW.id > 1) EXECUTE FUNCTION crash();`,
    }));
    const body = snapshotBody([makeIncident({ id: "a" }), makeIncident({ id: "b" })]);
    await expect(ingestSnapshot(db, { vendor, platform, source: "feed.json", observedAt: "2026-03-01T10:00:00.000Z", body })).rejects.toThrow(/simulated crash/);
    for (const table of ["captures", "capture_bodies", "incidents", "incident_versions", "version_kinds"]) {
      expect(await countRows(db, table)).toBe(0);
    }
  });
});

describe("presence", () => {
  it("marks an incident missing from an active-only feed as having left it, never deleted", async () => {
    const { capture, versions } = await setup({ kind: "active" });
    await capture([makeIncident(), makeIncident({ id: "old", startedAt: "2026-01-01T00:00:00.000Z" }), makeIncident({ id: "older", startedAt: "2025-12-01T00:00:00.000Z" })]);
    await capture([makeIncident({ id: "old", startedAt: "2026-01-01T00:00:00.000Z" }), makeIncident({ id: "older", startedAt: "2025-12-01T00:00:00.000Z" })]);
    expect((await versions()).map((v) => v.kinds)).toEqual([["incident-new"], ["incident-left-feed"]]);
  });

  it("calls an incident deleted when a most-recent feed drops it while older ones stay", async () => {
    const { capture, versions } = await setup({ kind: "recent", limit: 25 });
    const older = [
      makeIncident({ id: "old", startedAt: "2026-01-01T00:00:00.000Z" }),
      makeIncident({ id: "older", startedAt: "2025-12-01T00:00:00.000Z" }),
    ];
    await capture([makeIncident(), ...older]);
    await capture(older);
    expect((await versions()).at(-1)?.kinds).toEqual(["incident-deleted"]);
  });

  it("lets the oldest incident of a most-recent feed age out without calling it deleted", async () => {
    const { capture, versions } = await setup({ kind: "recent", limit: 2 });
    const newer = makeIncident({ id: "newer", startedAt: "2026-04-01T00:00:00.000Z" });
    await capture([makeIncident(), makeIncident({ id: "newest", startedAt: "2026-05-01T00:00:00.000Z" })]);
    await capture([newer, makeIncident({ id: "newest", startedAt: "2026-05-01T00:00:00.000Z" })]);
    expect((await versions()).at(-1)?.kinds).toEqual(["incident-left-feed"]);
  });

  it("reports an incident listed again after it left the feed, with what changed meanwhile", async () => {
    const { capture, versions } = await setup({ kind: "active" });
    await capture([makeIncident()]);
    await capture([]);
    await capture([makeIncident({ status: "identified" })]);
    expect((await versions()).map((v) => v.kinds)).toEqual([["incident-new"], ["incident-left-feed"], ["incident-reappeared", "status-changed"]]);
  });

  it("leaves other incidents alone when a single-incident snapshot lists only its own", async () => {
    const { capture, versions } = await setup({ kind: "single" });
    await capture([makeIncident({ id: "a" })]);
    await capture([makeIncident({ id: "b" })]);
    expect((await versions("a"))).toHaveLength(1);
    expect((await versions("b"))).toHaveLength(1);
  });
});

describe("re-deriving history", () => {
  it("replaces derived versions when the parser changes instead of appending fake edits", async () => {
    const { db, vendor, capture, versions } = await setup();
    await capture([makeIncident()]);
    await capture([makeIncident({ impact: "major" })]);
    expect((await versions())).toHaveLength(2);
    // The fixed parser reads a title the old one got wrong: history is rebuilt, not appended to.
    const fixed: Platform = {
      ...makeTestPlatform({ kind: "active" }, 2),
      async parse(body, context) {
        const snapshot = await makeTestPlatform({ kind: "active" }).parse(body, context);
        return { ...snapshot, observations: snapshot.observations.map((o) => ({ ...o, incident: { ...o.incident, title: `${o.incident.title} (fixed)` } })) };
      },
    };
    await capture([makeIncident({ impact: "major" })], fixed);
    expect(await runPendingJobs(db, { resolve: () => fixed })).toBe(1);
    const after = (await versions());
    expect(after.map((v) => v.kinds)).toEqual([["incident-new"], ["impact-escalated"]]);
    expect(await countRows(db, "captures")).toBe(3);
    const title = await queryRow<{ title: string }>(db, "SELECT title FROM incidents WHERE vendor_id = ?", vendor.id);
    expect(title?.title).toBe("Elevated API errors (fixed)");
  });

  it("builds the same history whatever order captures arrive in", async () => {
    const states = [makeIncident(), makeIncident({ impact: "major" }), makeIncident({ impact: "major", status: "resolved" })];
    const inOrder = await setup();
    for (const s of states) await inOrder.capture([s]);

    const shuffled = await setup();
    const at = (i: number) => new Date(Date.UTC(2026, 2, 1, 10, (i + 1) * 10)).toISOString();
    for (const i of [0, 2, 1]) {
      await ingestSnapshot(
        shuffled.db,
        { vendor: shuffled.vendor, platform: shuffled.platform, source: "feed.json", observedAt: at(i), body: snapshotBody([states[i] ?? makeIncident()]) },
        () => shuffled.platform,
      );
    }
    const { importSnapshots } = await import("@/scrapers/ingest/import-snapshots");
    await importSnapshots(shuffled.db, shuffled.vendor, shuffled.platform, [], () => {}, () => shuffled.platform);
    expect((await shuffled.versions()).map((v) => v.kinds)).toEqual((await inOrder.versions()).map((v) => v.kinds));
  });
});

describe("partial sources", () => {
  const pagePlatform: Platform = { ...makeTestPlatform({ kind: "single" }, 1, "test-page"), profile: statingOnly({ kind: "single" }, ["postmortem"], null, false) };

  it("adds an incident page's postmortem without erasing what the listing source said, and without taking over the listing", async () => {
    const { capture, versions } = await setup({ kind: "active" });
    await capture([makeIncident({ status: "resolved" })]);
    const postmortem = { body: "Root cause: a bad deploy.", publishedAt: "2026-03-10T00:00:00.000Z" };
    await capture([makeIncident({ title: "page title ignored", impact: null, components: [], updates: [], postmortem })], pagePlatform);
    await capture([makeIncident({ status: "resolved" })]);
    await capture([]);
    const all = (await versions());
    expect(all.map((v) => v.kinds)).toEqual([["incident-new"], ["postmortem-published"], ["incident-left-feed"]]);
    expect(all[1]?.changes.map((c) => c.field)).toEqual(["postmortem"]);
  });

  it("never creates an incident from a source that only adds to incidents", async () => {
    const { db, capture } = await setup({ kind: "active" });
    await capture([makeIncident({ id: "unknown" })], pagePlatform);
    expect(await countRows(db, "incidents")).toBe(0);
  });

  it("keeps fields a listing feed does not carry when it takes over", async () => {
    const { capture, versions } = await setup({ kind: "active" });
    await capture([makeIncident({ impact: "major" })]);
    const feed: Platform = { ...makeTestPlatform({ kind: "active" }, 1, "test-feed"), profile: statingOnly({ kind: "active" }, ["title", "status"]) };
    await capture([makeIncident({ impact: null, components: [], status: "identified" })], feed);
    const last = (await versions()).at(-1);
    expect(last?.kinds).toEqual(["status-changed"]);
  });
});

/** The rows naming an incident in the search index: FTS5's rowid on SQLite, incident_id on PostgreSQL. */
const SEARCH_ID = { sqlite: "s.rowid", postgres: "s.incident_id" };

/** One incident renamed, resolved, moved to another component and given a postmortem, over four captures. */
async function editedIncident() {
  const { db, capture } = await setup();
  await capture([makeIncident({ components: [{ id: "api", name: "API" }] })]);
  await capture([makeIncident({ status: "resolved", resolvedAt: "2026-03-01T11:00:00.000Z", components: [{ id: "web", name: "Web" }] })]);
  await capture([makeIncident({ status: "resolved", resolvedAt: "2026-03-01T11:00:00.000Z", impact: "none", title: "Quietly renamed", components: [{ id: "web", name: "Web" }] })]);
  await capture([makeIncident({ status: "resolved", resolvedAt: "2026-03-01T11:00:00.000Z", impact: "none", title: "Quietly renamed", components: [{ id: "web", name: "Web" }], postmortem: { body: "A cache stampede.", publishedAt: null } })]);
  return db;
}

/** A vendor with one incident whose history was rebuilt. */
async function rebuiltVendor() {
  const { db, vendor, capture } = await setup();
  await capture([makeIncident()]);
  await queueJob(db, vendor.id, "requested", null);
  await runPendingJobs(db, { resolve: () => makeTestPlatform({ kind: "active" }) });
  return db;
}

describe("what the pages query", () => {
  it("keeps the search index, components and profile figures in step with each version", async () => {
    const db = await editedIncident();
    const found = await queryRows(db, {
      sqlite: "SELECT rowid FROM incident_search WHERE incident_search MATCH 'quietly AND stampede'",
      postgres: "SELECT incident_id FROM incident_search WHERE document @@ redline_search_query(ARRAY['quietly', 'stampede'])",
    });
    expect(found).toHaveLength(1);
    const inTitle = (word: string) =>
      queryRow(
        db,
        {
          sqlite: "SELECT count(*) AS n FROM incident_search WHERE incident_search MATCH 'title : ' || ?",
          postgres: "SELECT count(*) AS n FROM incident_search WHERE redline_search_vector(title) @@ redline_search_query(ARRAY[?::text])",
        },
        word,
      );
    expect(await inTitle("elevated")).toEqual({ n: 0 });
    expect(await inTitle("quietly")).toEqual({ n: 1 });
    expect(await queryRows(db, "SELECT name FROM incident_components")).toEqual([{ name: "Web" }]);
    const row = await queryRow<{ pm: string | null; edits: number }>(db, "SELECT postmortem_at AS pm, edits_after_resolution AS edits FROM incidents");
    expect(row?.edits).toBe(1);
    expect(row?.pm).not.toBeNull();
  });

  it.skipIf(testDatabaseDialect === "postgres")("leaves an FTS5 index that passes its own integrity check after the edits (SQLite)", async () => {
    checkSearchIndex(await editedIncident());
  });

  it("drops an incident from the search index when its vendor's history is rebuilt", async () => {
    const db = await rebuiltVendor();
    expect(await queryRow(db, "SELECT count(*) AS n FROM incident_search")).toEqual({ n: 1 });
    expect(
      await queryRow(db, {
        sqlite: `SELECT count(*) AS n FROM incident_search s LEFT JOIN incidents i ON i.id = ${SEARCH_ID.sqlite} WHERE i.id IS NULL`,
        postgres: `SELECT count(*) AS n FROM incident_search s LEFT JOIN incidents i ON i.id = ${SEARCH_ID.postgres} WHERE i.id IS NULL`,
      }),
    ).toEqual({ n: 0 });
  });

  it.skipIf(testDatabaseDialect === "postgres")("leaves an FTS5 index that passes its own integrity check after a rebuild (SQLite)", async () => {
    checkSearchIndex(await rebuiltVendor());
  });
});
