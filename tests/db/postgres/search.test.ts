import { afterAll, beforeAll, expect, it } from "vitest";
import { closeDatabase, openDatabase, type RedlineDb } from "@/db/client";
import { SNIPPET_CLOSE, SNIPPET_OPEN, toFtsQuery } from "@/db/queries/search";
import { describePostgres, runPostgresCluster } from "@/tests/support/postgres";
import { bothDialects, type MigratedPostgres, migratedPostgres } from "@/tests/support/postgres-schema";

const NOW = "2026-05-01T00:00:00.000Z";

/** Incident texts as status pages write them: hosts, regions, versions, accents, curly quotes, dashes. */
const INCIDENTS: Array<[title: string, updates: string, postmortem: string]> = [
  ["Elevated API errors", "We are investigating errors on api.example.com in us-east-1.", ""],
  ["Dashboard slow", "The “dashboard” is slow; API errors for some users — investigating.", ""],
  ["Login outage", "Users cannot log in. Café terminals affected.", "The outage was caused by an expired TLS certificate (v1.2.3)."],
  ["Scheduled maintenance", "Database upgrade to PostgreSQL 15.4 on db-primary_01.", ""],
  ["Résumé service degraded", "Naïve retries overloaded the queue; write to ops@example.org.", ""],
  ["Partial outage", "Some requests fail with HTTP 503 errors.", "Root cause: a misconfigured load-balancer."],
];

const QUERIES = [
  "api errors",
  "example",
  "api.example.com",
  "us-east-1",
  "east",
  "cafe",
  "CAFÉ",
  "dashboard",
  "investigate",
  "investigat*",
  "outages",
  "certif*",
  "v1.2.3",
  "2.3",
  "postgresql 15",
  "primary",
  "db-primary_01",
  "resume",
  "naive retry",
  "ops",
  "example.org",
  "503",
  "load balancer",
  "misconfiguration",
  "the",
  "cause",
  "us-ea*",
  "Dash*",
  "nothing",
];

/** The words toFtsQuery keeps, each a phrase and a trailing * a prefix: what redline_search_query takes. */
function termsOf(input: string): string[] {
  const query = toFtsQuery(input);
  return query === null ? [] : [...query.matchAll(/"([^"]*)"(\*?)/g)].map((m) => `${m[1] ?? ""}${m[2] ?? ""}`);
}

const marked = (text: string) => text.replaceAll(SNIPPET_OPEN, "<mark>").replaceAll(SNIPPET_CLOSE, "</mark>");

describePostgres("PostgreSQL search", () => {
  let cluster: ReturnType<typeof runPostgresCluster>;
  let sqlite: RedlineDb;
  let pg: MigratedPostgres;

  beforeAll(async () => {
    cluster = runPostgresCluster();
    sqlite = openDatabase(":memory:");
    pg = await migratedPostgres(await cluster.createDatabase("search"));
    const run = bothDialects(sqlite, pg.pool);
    await run("INSERT INTO vendors (slug, name, platform, created_at) VALUES ('acme', 'Acme', 'statuspage', ?)", [NOW]);
    for (const [i, [title, updates, postmortem]] of INCIDENTS.entries()) {
      await run(
        "INSERT INTO incidents (id, vendor_id, provider_id, kind, title, presence, source, first_seen_at, last_seen_at, observed_hash, version_count, last_changed_at) VALUES (?, 1, ?, 'incident', ?, 'listed', 'feed', ?, ?, 'h', 1, ?)",
        [i + 1, `inc-${i + 1}`, title, NOW, NOW, NOW],
      );
      sqlite.$client.prepare("INSERT INTO incident_search_text (incident_id, body) VALUES (?, redline_search_pack(?, ?, ?))").run(i + 1, title, updates, postmortem);
      await pg.pool.query("INSERT INTO incident_search (incident_id, title, updates, postmortem) VALUES ($1, $2, $3, $4)", [i + 1, title, updates, postmortem]);
    }
  });

  afterAll(async () => {
    closeDatabase(sqlite);
    await pg.close();
  });

  const sqliteMatches = (input: string) =>
    sqlite.$client
      .prepare<[string], { id: number }>("SELECT rowid AS id FROM incident_search WHERE incident_search MATCH ? ORDER BY rowid")
      .all(toFtsQuery(input) ?? "")
      .map((r) => r.id);
  const postgresMatches = async (input: string) =>
    (await pg.pool.query<{ id: string }>("SELECT incident_id AS id FROM incident_search WHERE document @@ redline_search_query($1) ORDER BY incident_id", [termsOf(input)])).rows.map((r) => Number(r.id));

  it("finds the incidents SQLite's FTS5 index finds, for words inside hosts, regions, versions, accented and curly-quoted text", async () => {
    const differences: Array<{ query: string; sqlite: number[]; postgres: number[] }> = [];
    for (const query of QUERIES) {
      const expected = sqliteMatches(query);
      const found = await postgresMatches(query);
      if (JSON.stringify(found) !== JSON.stringify(expected)) differences.push({ query, sqlite: expected, postgres: found });
    }
    expect(differences).toEqual([]);
    expect(await postgresMatches("example")).toEqual([1, 5]);
    expect(await postgresMatches("nothing")).toEqual([]);
  });

  it("ranks a match in the title above one in the update texts, as bm25's weights do", async () => {
    const ranked = await pg.pool.query<{ id: string }>(
      `SELECT incident_id AS id FROM incident_search, redline_search_query($1) AS q
       WHERE document @@ q ORDER BY ts_rank_cd('{0.125, 0.25, 0.5, 1}', document, q) DESC, incident_id`,
      [termsOf("errors")],
    );
    expect(ranked.rows.map((r) => Number(r.id))).toEqual([1, 2, 6]);
    const sqliteRanked = sqlite.$client
      .prepare<[string], { id: number }>("SELECT rowid AS id FROM incident_search WHERE incident_search MATCH ? ORDER BY bm25(incident_search, 8.0, 1.0, 2.0), rowid")
      .all(toFtsQuery("errors") ?? "");
    expect(sqliteRanked[0]?.id).toBe(1);
  });

  it("marks the matched words in a headline as FTS5's snippet marks them", async () => {
    for (const [id, query] of [
      [1, "example east"],
      [2, "dashboard investigate"],
      [3, "cafe"],
      [5, "naive retry"],
    ] as const) {
      const headline = await pg.pool.query<{ text: string }>("SELECT redline_search_headline(updates, redline_search_query($2)) AS text FROM incident_search WHERE incident_id = $1", [id, termsOf(query)]);
      const snippet = sqlite.$client
        .prepare<[string, number], { text: string }>("SELECT snippet(incident_search, 1, char(1), char(2), '…', 24) AS text FROM incident_search WHERE incident_search MATCH ? AND rowid = ?")
        .get(toFtsQuery(query) ?? "", id);
      expect(marked(snippet?.text ?? "")).toContain("</mark>");
      expect(marked(headline.rows[0]?.text ?? "")).toBe(marked(snippet?.text ?? ""));
    }
    const [first] = (await pg.pool.query<{ text: string }>("SELECT redline_search_headline(updates, redline_search_query($1)) AS text FROM incident_search WHERE incident_id = 1", [["example"]])).rows;
    expect(marked(first?.text ?? "")).toBe("We are investigating errors on api.<mark>example</mark>.com in us-east-1.");
  });

  it("finds the text a version took away, and forgets an incident's and a version's text with them", async () => {
    await pg.pool.query(
      "INSERT INTO incidents (id, vendor_id, provider_id, kind, title, presence, source, first_seen_at, last_seen_at, observed_hash, version_count, last_changed_at) VALUES (100, 1, 'inc-100', 'incident', 'Regional outage', 'listed', 'feed', $1, $1, 'h', 2, $1)",
      [NOW],
    );
    await pg.pool.query("INSERT INTO incident_search (incident_id, title, updates, postmortem) VALUES (100, 'Regional outage', 'Fixed.', '')");
    await pg.pool.query("INSERT INTO captures (id, vendor_id, source, platform, observed_at, outcome, hash, recorded_at) VALUES (100, 1, 'feed', 'statuspage', $1, 'ok', 'h', $1)", [NOW]);
    const version = "INSERT INTO incident_versions (id, incident_id, vendor_id, seq, observed_at, hash, kinds, content, capture_id) VALUES ($1, 100, 1, $2, $3, 'h', '[]', '\\x01', 100)";
    await pg.pool.query(version, [101, 1, NOW]);
    await pg.pool.query(version, [102, 2, NOW]);
    await pg.pool.query("INSERT INTO version_search (version_id, removed) VALUES (102, 'Customers in eu-west-2 were not affected.')");
    const removed = async (input: string) =>
      (await pg.pool.query<{ id: string }>("SELECT version_id AS id FROM version_search WHERE document @@ redline_search_query($1)", [termsOf(input)])).rows.map((r) => Number(r.id));
    expect(await removed("west")).toEqual([102]);
    expect(await removed("customer affect*")).toEqual([102]);
    await pg.pool.query("DELETE FROM incident_versions WHERE id = 102");
    expect(await removed("west")).toEqual([]);
    expect(await postgresMatches("regional")).toEqual([100]);
    await pg.pool.query("DELETE FROM incidents WHERE id = 100");
    expect(await postgresMatches("regional")).toEqual([]);
  });
});
