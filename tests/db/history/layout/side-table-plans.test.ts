import type Database from "better-sqlite3";
import { beforeAll, describe, expect, it } from "vitest";
import type { RedlineDb } from "@/db/client";
import { transact } from "@/db/driver/transaction";
import { listChanges } from "@/db/queries/changes";
import { listIncidents } from "@/db/queries/incident-list";
import { listComponentNames, listIncidentFacts, listVendorIncidents } from "@/db/queries/vendor-profile";
import { describeVendorNowIncidents, listVendorOverviews } from "@/db/queries/vendors-overview";
import { ensureVendor, listVendorSummaries, removeVendor } from "@/db/settings/vendors";
import { ingestSnapshot } from "@/scrapers/ingest/ingest-snapshot";
import { archiveAcmeLifecycle } from "@/tests/support/acme-archive";
import { freshDatabase, queryRow, queryRows } from "@/tests/support/database";
import { testDatabaseDialect } from "@/tests/support/test-database-settings";
import { makeIncident } from "@/tests/support/incidents";
import { makeTestPlatform, snapshotBody } from "@/tests/support/test-platform";

/** Every statement the code prepared on the connection, by its text: the queries as they run, not copies of them. */
function recordStatements(sqlite: Database.Database): Set<string> {
  const seen = new Set<string>();
  const prepare = sqlite.prepare.bind(sqlite);
  sqlite.prepare = ((source: string) => {
    seen.add(source);
    return prepare(source);
  }) as typeof sqlite.prepare;
  return seen;
}

/** EXPLAIN QUERY PLAN of a statement, every parameter bound to null: without ANALYZE the plan does not depend on values. */
function planOf(sqlite: Database.Database, source: string): string[] {
  const named = [...new Set(source.match(/@\w+/g) ?? [])].map((p) => p.slice(1));
  const positional = (source.match(/\?/g) ?? []).length;
  const statement = sqlite.prepare<unknown[], { detail: string }>(`EXPLAIN QUERY PLAN ${source}`);
  const rows = named.length > 0 ? statement.all(Object.fromEntries(named.map((n) => [n, null]))) : statement.all(...Array<null>(positional).fill(null));
  return rows.map((r) => r.detail);
}

let db: RedlineDb;
let statements: Set<string>;
let purged: { versionKinds: number; acme: number };

beforeAll(async () => {
  db = await freshDatabase();
  // The statements' texts are recorded on SQLite alone, whose plans below are checked against them.
  statements = testDatabaseDialect === "sqlite" ? recordStatements(db.$client) : new Set();
  const platform = makeTestPlatform({ kind: "recent", limit: 25 });
  const acme = (await archiveAcmeLifecycle(db, platform)).id;
  const other = await ensureVendor(db, { slug: "other", name: "Other Co", platform: platform.name });
  const outage = makeIncident({ vendor: "other", id: "o-1", title: "Payments outage", startedAt: "2026-04-09T00:00:00.000Z", components: [{ id: "pay", name: "Payments" }] });
  await ingestSnapshot(db, { vendor: other, platform, source: "feed", observedAt: "2026-04-09T01:00:00.000Z", body: snapshotBody([outage]) });
  await listChanges(db, { kinds: ["impact-downgraded"] }, 20);
  await listChanges(db, { vendorId: acme, kinds: ["impact-downgraded", "title-changed"] }, 20);
  await listIncidents(db, { kinds: ["impact-downgraded"] }, 20);
  await listIncidents(db, { component: "API" }, 20);
  await listIncidentFacts(db, acme, "2020-01-01T00:00:00.000Z", "2030-01-01T00:00:00.000Z");
  await listVendorIncidents(db, acme, {}, 20);
  await listComponentNames(db, acme);
  const [acmeOverview] = await listVendorOverviews(db, new Date("2026-06-01T00:00:00.000Z"), { profileOf: () => platform.profile, defaultIntervalMs: 300_000 });
  if (acmeOverview) await describeVendorNowIncidents(db, acmeOverview, new Date("2026-06-01T00:00:00.000Z"));
  await listVendorSummaries(db);
  const kindRows = async () => (await queryRow<{ n: number }>(db, "SELECT count(*) AS n FROM version_kinds WHERE vendor_id = ?", acme))?.n ?? 0;
  const before = await kindRows();
  await removeVendor(db, "acme", true);
  purged = { versionKinds: before - (await kindRows()), acme };
});

/** The one recorded statement whose text holds every fragment. */
function statementWith(...fragments: string[]): string {
  // A plan asked for before is recorded too: one statement may answer two cases.
  const found = [...statements].filter((s) => !s.startsWith("EXPLAIN") && fragments.every((f) => s.replace(/\s+/g, " ").includes(f)));
  expect(found, `one prepared statement with ${fragments.join(" … ")}`).toHaveLength(1);
  return found[0] ?? "";
}

/** `sortsVendors`: the list is ordered by vendor name, a sort of the vendors table alone. */
const CASES: Array<{ name: string; fragments: string[]; plan: RegExp[]; sortsVendors?: true }> = [
  { name: "changes of a kind, across vendors (home page kind filter, /kinds/<kind>/feed, API ?kind=)", fragments: ["FROM version_kinds k", "WHERE k.kind = @kind"],
    plan: [/^SEARCH k USING PRIMARY KEY \(kind=\? AND \(observed_ms,version_id\)<\(\?,\?\)\)$/] },
  { name: "changes of a kind of one vendor (vendor kind feeds)", fragments: ["FROM version_kinds k", "k.vendor_id = @vendorId AND k.kind = @kind"],
    plan: [/^SEARCH k USING COVERING INDEX version_kinds_vendor \(vendor_id=\? AND kind=\? AND \(observed_ms,version_id\)<\(\?,\?\)\)$/] },
  { name: "incidents with a version of a kind", fragments: ["JOIN version_kinds k ON k.version_id = v.id"],
    plan: [/^SEARCH k USING COVERING INDEX version_kinds_version \(version_id=\? AND kind=\?\)$/] },
  { name: "unresolved incidents of every vendor, counted by source and kind", fragments: ["INDEXED BY incidents_open WHERE i.presence = 'listed' AND i.resolved_at IS NULL", "GROUP BY i.vendor_id, i.source, i.kind"],
    plan: [/^SCAN i USING INDEX incidents_open$/] },
  { name: "a vendor's unresolved incidents, newest first", fragments: ["WHERE i.vendor_id = ? AND i.presence = 'listed' AND i.resolved_at IS NULL", "ORDER BY i.started_at DESC LIMIT 200"],
    plan: [/^SEARCH i USING INDEX incidents_open \(vendor_id=\?\)$/] },
  { name: "a vendor's sources, one seek each (its Now)", fragments: ["SELECT source FROM captures WHERE vendor_id = ? AND source > ?"],
    plan: [/^SEARCH captures USING COVERING INDEX captures_identity \(vendor_id=\? AND source>\?\)$/] },
  { name: "a source's last good capture", fragments: ["AS at FROM captures WHERE vendor_id = ? AND source = ? AND outcome IN ('ok', 'not-modified')"],
    plan: [/^SEARCH captures USING INDEX captures_identity \(vendor_id=\? AND source=\?\)$/] },
  { name: "a source's last capture", fragments: ["AS at, outcome, platform FROM captures"],
    plan: [/^SEARCH captures USING INDEX captures_identity \(vendor_id=\? AND source=\?\)$/] },
  { name: "a vendor's incidents by start (its profile's facts)", fragments: ["kind = 'incident' AND started_at >= ? AND started_at < ?"],
    plan: [/^SEARCH incidents USING INDEX incidents_vendor_started \(vendor_id=\? AND started_at>\? AND started_at<\?\)$/] },
  { name: "a vendor's latest incident", fragments: ["ORDER BY started_at DESC LIMIT 1"], plan: [/^SEARCH incidents USING INDEX incidents_vendor_started \(vendor_id=\? AND started_at>\?\)$/] },
  { name: "a vendor's incidents newest first", fragments: ["WHERE i.vendor_id = @vendorId AND (@impact"], plan: [/^SEARCH i USING INDEX incidents_vendor_timeline \(vendor_id=\?\)$/, /^SEARCH c USING PRIMARY KEY \(incident_id=\?\)$/] },
  { name: "presence: the snapshot's incidents and this source's listing of them", fragments: ["LEFT JOIN incident_sources s"],
    plan: [/^SEARCH i USING INDEX incidents_identity \(vendor_id=\? AND provider_id=\?\)$/, /^SEARCH s USING PRIMARY KEY \(incident_id=\? AND source=\?\) LEFT-JOIN$/] },
  // The same statement as the case before: its second half, when the source lists incidents.
  { name: "presence: what a source listed", fragments: ["'listed' FROM incident_sources s JOIN incidents i"], plan: [/^SEARCH s USING COVERING INDEX incident_sources_listed \(vendor_id=\? AND source=\?\)$/] },
  // The same statement's third part.
  { name: "presence: incidents listed since a source last looked", fragments: ["a.presence = 'listed' AND a.first_seen_at > @since"],
    plan: [/^SEARCH a USING INDEX incidents_listed_seen \(vendor_id=\? AND first_seen_at>\?\)$/] },
  { name: "every vendor's incident count and last change (vendors list)", fragments: ["FROM vendors v LEFT JOIN incidents i ON i.vendor_id = v.id"],
    plan: [/^SEARCH i USING INDEX \w+ \(vendor_id=\?\) LEFT-JOIN$/], sortsVendors: true },
  { name: "a vendor's component names", fragments: ["FROM incident_components WHERE vendor_id = ? GROUP BY name"],
    plan: [/^SEARCH incident_components USING COVERING INDEX incident_components_vendor_name \(vendor_id=\?\)$/] },
];

describe.skipIf(testDatabaseDialect === "postgres")("every query of the side tables reads an index (SQLite)", () => {
  for (const c of CASES) {
    it(`${c.name}, in the order it lists`, () => {
      const plan = planOf(db.$client, statementWith(...c.fragments));
      for (const line of c.plan) expect(plan, plan.join("\n")).toContainEqual(expect.stringMatching(line));
      expect(plan.join("\n")).not.toMatch(/SCAN (k|s|c|i|incidents|incident_components|incident_sources|version_kinds|captures)\b(?! USING INDEX)/);
      if (!c.sortsVendors) expect(plan).not.toContain("USE TEMP B-TREE FOR ORDER BY");
    });
  }

  it("deleting a version or an incident finds its side rows by index (what the cascades look up)", () => {
    expect(planOf(db.$client, "DELETE FROM version_kinds WHERE version_id = ?")).toEqual(["SEARCH version_kinds USING INDEX version_kinds_version (version_id=?)"]);
    expect(planOf(db.$client, "DELETE FROM incident_sources WHERE incident_id = ?")).toEqual(["SEARCH incident_sources USING PRIMARY KEY (incident_id=?)"]);
    expect(planOf(db.$client, "DELETE FROM incident_components WHERE incident_id = ?")).toEqual(["SEARCH incident_components USING PRIMARY KEY (incident_id=?)"]);
  });
});

/**
 * PostgreSQL's plan of a statement, sequential scans turned off: on tables this small the planner
 * would scan them anyway, so this asks which index it can use, not which it prefers. The setting
 * is local to a transaction of its own; plain EXPLAIN runs nothing.
 */
async function postgresPlanOf(source: string, ...params: unknown[]): Promise<string> {
  let plan = "";
  await transact(db, async () => {
    await queryRows(db, "SELECT set_config('enable_seqscan', 'off', true)");
    plan = (await queryRows<{ "QUERY PLAN": string }>(db, `EXPLAIN ${source}`, ...params)).map((r) => r["QUERY PLAN"]).join("\n");
  });
  return plan;
}

/** A plan line reading `index`: an index scan of it, or a bitmap built from it. */
const readsIndex = (index: string) => new RegExp(`(Index (Only )?Scan using ${index} |Bitmap Index Scan on ${index}\\b)`);

describe.skipIf(testDatabaseDialect === "sqlite")("the side tables' cascades read an index (PostgreSQL)", () => {
  it("deleting a version or an incident finds its side rows by index (what the cascades look up)", async () => {
    expect(await postgresPlanOf("DELETE FROM version_kinds WHERE version_id = ?", 1)).toMatch(readsIndex("version_kinds_version"));
    expect(await postgresPlanOf("DELETE FROM incident_sources WHERE incident_id = ?", 1)).toMatch(readsIndex("incident_sources_incident_id_source_pk"));
    expect(await postgresPlanOf("DELETE FROM incident_components WHERE incident_id = ?", 1)).toMatch(readsIndex("incident_components_incident_id_component_id_pk"));
  });
});

describe("purging a vendor", () => {
  it("removes its side rows through the cascades", async () => {
    expect(purged.versionKinds).toBeGreaterThan(10);
    for (const table of ["version_kinds", "incident_sources", "incident_components"]) {
      const count = async (where: string) => (await queryRow<{ n: number }>(db, `SELECT count(*) AS n FROM ${table} WHERE ${where}`))?.n;
      expect(await count(`vendor_id = ${purged.acme}`), table).toBe(0);
      expect(await count("vendor_id = (SELECT id FROM vendors WHERE slug = 'other')"), table).toBeGreaterThan(0);
    }
  });
});
