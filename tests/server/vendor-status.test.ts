import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { RedlineDb } from "@/db/client";
import { loadVendorExport } from "@/db/queries/incident-history";
import { ensureVendor } from "@/db/settings/vendors";
import type { ExportDocument } from "@/lib/export-document";
import { type Api, createApi } from "@/server/api/api";
import { importSnapshots, listSnapshotFolder } from "@/scrapers/ingest/import-snapshots";
import { ingestSnapshot } from "@/scrapers/ingest/ingest-snapshot";
import { getPlatform } from "@/scrapers/platforms";
import { corpusPath, corpusSnapshots, describeCorpus, observedAtOf } from "@/tests/support/corpus";
import { freshDatabase } from "@/tests/support/database";

/**
 * GET /api/v1/vendors/{slug}/status against a reference worked out here from the raw snapshot
 * files alone: the last good snapshot at or before the moment is the page then; a component's
 * `since` is the first snapshot of the unbroken stretch in which it showed that word.
 */
const ORIGIN = "http://redline.test";
const VOCABULARY: Record<string, string> = {
  operational: "operational", degraded_performance: "degraded", partial_outage: "partial-outage", major_outage: "major-outage", under_maintenance: "maintenance",
};
const RANK: Record<string, number> = { "major-outage": 5, "partial-outage": 4, degraded: 3, unknown: 2, maintenance: 1, operational: 0 };
const CLOSED = new Set(["resolved", "postmortem", "completed"]);

interface RawComponent { id: string; name: string; status: string; group_id: string | null; group?: boolean }
interface RawIncident { id: string; name: string; status: string; impact: string | null; resolved_at: string | null }
interface Snapshot { at: string; components: RawComponent[]; open: RawIncident[]; since: Map<string, string> }

interface ViewBody {
  vendor: string;
  at: string;
  observedAt: string | null;
  components: Array<{ id: string; name: string; group: string | null; status: string; vendorStatus: string; since: string; inferred: boolean }>;
  incidents: Array<{ id: string; title: string; status: string | null; impact: string | null; seq: number }>;
}

/** The good snapshots of a folder (a 0-byte file is a failed fetch, not a page), each with when each component's word began. */
function readSnapshots(folder: string): { good: Snapshot[]; failed: string[] } {
  const good: Snapshot[] = [];
  const failed: string[] = [];
  let previous: Snapshot | undefined;
  for (const file of corpusSnapshots(folder)) {
    const text = fs.readFileSync(file, "utf8");
    if (text.trim() === "") {
      failed.push(observedAtOf(file));
      continue;
    }
    const json = JSON.parse(text) as { components: RawComponent[]; incidents: RawIncident[]; scheduled_maintenances?: RawIncident[] };
    const at = observedAtOf(file);
    const since = new Map<string, string>();
    for (const c of json.components) {
      const before = previous?.components.find((p) => p.id === c.id);
      since.set(c.id, before && before.status === c.status ? (previous?.since.get(c.id) ?? at) : at);
    }
    const open = [...json.incidents, ...(json.scheduled_maintenances ?? [])].filter((i) => i.resolved_at === null && !CLOSED.has(i.status));
    previous = { at, components: json.components, open, since };
    good.push(previous);
  }
  return { good, failed };
}

function referenceBody(vendor: string, snapshots: readonly Snapshot[], at: string): Omit<ViewBody, "incidents"> & { incidents: Array<Omit<ViewBody["incidents"][number], "seq">> } {
  const snap = snapshots.filter((s) => s.at <= at).at(-1);
  if (!snap) throw new Error(`no snapshot before ${at}`);
  const groups = new Map(snap.components.filter((c) => c.group).map((c) => [c.id, c.name]));
  const components = snap.components
    .map((c) => ({
      id: c.id, name: c.name, group: c.group_id === null ? null : (groups.get(c.group_id) ?? c.group_id),
      status: VOCABULARY[c.status] ?? "unknown", vendorStatus: c.status, since: snap.since.get(c.id) ?? "", inferred: false,
    }))
    .sort((a, b) => (RANK[b.status] ?? 0) - (RANK[a.status] ?? 0) || a.name.localeCompare(b.name) || (a.id < b.id ? -1 : 1));
  const incidents = snap.open.map((i) => ({ id: i.id, title: i.name, status: i.status, impact: i.impact })).sort((a, b) => (a.id < b.id ? -1 : 1));
  return { vendor, at, observedAt: snap.at, components, incidents };
}

/** Instants strictly between two good snapshots: halfway, and a second before the later one. */
function between(a: string, b: string): string[] {
  const [x, y] = [Date.parse(a), Date.parse(b)];
  return [new Date(Math.floor((x + y) / 2)).toISOString(), new Date(y - 1_000).toISOString()];
}

const FOLDERS = [
  { folder: "statuspage-summary-github-2025", vendor: "github" },
  { folder: "statuspage-summary-trello-nonutc", vendor: "trello" },
] as const;

describeCorpus("the page as it was, from the API, on real Statuspage summary.json histories", () => {
  let db: RedlineDb;
  let api: Api;
  const history = new Map<string, { good: Snapshot[]; failed: string[]; doc: ExportDocument }>();

  beforeAll(async () => {
    db = await freshDatabase();
    api = createApi(() => db);
    const platform = getPlatform("statuspage-summary");
    if (!platform) throw new Error("no statuspage-summary platform");
    for (const { folder, vendor } of FOLDERS) {
      const row = await ensureVendor(db, { slug: vendor, platform: platform.name });
      await importSnapshots(db, row, platform, listSnapshotFolder(corpusPath(folder)).snapshots);
      const doc = await loadVendorExport(db, vendor);
      if (!doc) throw new Error(`no export of ${vendor}`);
      history.set(vendor, { ...readSnapshots(folder), doc });
    }
  }, 300_000);

  async function status(slug: string, query = ""): Promise<Response> {
    return api.getVendorStatus(new Request(`${ORIGIN}/api/v1/vendors/${slug}/status${query}`), { params: Promise.resolve({ slug }) });
  }

  /** The body against the reference, and each incident's `seq` as the version it was at then (observed at or before, the next one after). */
  async function expectReference(vendor: string, at: string): Promise<ViewBody> {
    const h = history.get(vendor);
    if (!h) throw new Error(`no history of ${vendor}`);
    const response = await status(vendor, `?at=${at}`);
    expect(response.status, at).toBe(200);
    const body = (await response.json()) as ViewBody;
    const { incidents, ...rest } = referenceBody(vendor, h.good, at);
    expect({ ...body, incidents: undefined }, at).toEqual({ ...rest, incidents: undefined });
    expect(body.incidents.map(({ seq: _seq, ...i }) => i).sort((a, b) => (a.id < b.id ? -1 : 1)), at).toEqual(incidents);
    for (const i of body.incidents) {
      const versions = h.doc.incidents.find((x) => x.id === i.id)?.versions ?? [];
      expect(versions[i.seq - 1]?.observedAt ?? "", `${i.id} v${i.seq} at ${at}`).not.toBe("");
      expect((versions[i.seq - 1]?.observedAt ?? "") <= at, `${i.id} v${i.seq} at ${at}`).toBe(true);
      expect(versions[i.seq] === undefined || (versions[i.seq]?.observedAt ?? "") > at, `${i.id} v${i.seq} is the last before ${at}`).toBe(true);
    }
    return body;
  }

  it("gives GitHub's grid and open incidents at instants between captures, as the snapshots before them showed", async () => {
    const { good } = history.get("github") ?? { good: [] };
    let withIncidents = 0;
    let degraded = 0;
    for (let i = 0; i + 1 < good.length; i += 3) {
      for (const at of between(good[i]?.at ?? "", good[i + 1]?.at ?? "")) {
        const body = await expectReference("github", at);
        if (body.incidents.length > 0) withIncidents += 1;
        if (body.components.some((c) => c.status !== "operational")) degraded += 1;
      }
    }
    expect(withIncidents).toBeGreaterThan(20);
    expect(degraded).toBeGreaterThan(10);
  });

  it("rests on the last good capture inside a failed-capture gap (Trello's 0-byte files), never on the failed one", async () => {
    const { good, failed } = history.get("trello") ?? { good: [], failed: [] };
    let checked = 0;
    for (const failedAt of failed) {
      const before = good.filter((s) => s.at < failedAt).at(-1);
      const after = good.find((s) => s.at > failedAt);
      if (!before || !after) continue;
      for (const at of [new Date(Date.parse(failedAt) + 1_000).toISOString(), new Date(Date.parse(failedAt) - 1_000).toISOString()]) {
        if (at <= before.at) continue;
        const body = await expectReference("trello", at);
        expect(body.observedAt).toBe(before.at);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(40);
  });

  it("answers a moment before the vendor's first good capture with a 404 problem saying from when it is archived", async () => {
    const { good, failed } = history.get("trello") ?? { good: [], failed: [] };
    const first = good[0]?.at ?? "";
    // Trello's first file is a failed fetch: the archive starts at the first good one.
    expect((failed[0] ?? "") < first).toBe(true);
    for (const at of [new Date(Date.parse(first) - 1_000).toISOString(), "2001-01-01T00:00:00Z"]) {
      const response = await status("trello", `?at=${at}`);
      expect(response.status).toBe(404);
      expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
      expect(((await response.json()) as { detail: string }).detail).toContain(`archived from ${first}`);
    }
    expect((await status("trello", `?at=${first}`)).status).toBe(200);
  });

  it("reads a time without an offset as UTC and one with an offset at its instant", async () => {
    const { good } = history.get("github") ?? { good: [] };
    const [at] = between(good[10]?.at ?? "", good[11]?.at ?? "");
    const utc = (await (await status("github", `?at=${at}`)).json()) as ViewBody;
    const local = new Date(Date.parse(at ?? "") + 2 * 3_600_000).toISOString().replace("Z", "+02:00");
    const bare = (at ?? "").replace("Z", "");
    for (const form of [local, bare]) {
      const body = (await (await status("github", `?at=${encodeURIComponent(form)}`)).json()) as ViewBody;
      expect(body, form).toEqual(utc);
    }
  });
});

describe("the page as it was, from the API: refusals and now", () => {
  let db: RedlineDb;
  let api: Api;
  const status = (slug: string, query = "") => api.getVendorStatus(new Request(`${ORIGIN}/api/v1/vendors/${slug}/status${query}`), { params: Promise.resolve({ slug }) });
  const fixture = fs.readFileSync(path.join(__dirname, "..", "fixtures", "statuspage", "components-groups-handwritten.json"));

  async function capture(slug: string, at: Date): Promise<void> {
    const platform = getPlatform("statuspage-components");
    if (!platform) throw new Error("no statuspage-components platform");
    const vendor = await ensureVendor(db, { slug, name: slug.toUpperCase(), platform: platform.name });
    await ingestSnapshot(db, { vendor, platform, source: `https://${slug}.test/api/v2/components.json`, observedAt: at.toISOString(), body: fixture });
  }

  beforeAll(async () => {
    db = await freshDatabase();
    api = createApi(() => db);
    await capture("fresh", new Date(Date.now() - 60_000));
    await capture("stale", new Date(Date.now() - 30 * 86_400_000));
    await ensureVendor(db, { slug: "never", name: "Never", platform: "statuspage" });
  });

  it("refuses a malformed moment and one still to come with a 400 naming the parameter", async () => {
    for (const at of ["yesterday", "2025-13-01T00:00:00Z", "2999-01-01T00:00:00Z"]) {
      const response = await status("fresh", `?at=${encodeURIComponent(at)}`);
      expect(response.status, at).toBe(400);
      expect(await response.json(), at).toMatchObject({ status: 400, parameter: "at" });
    }
    expect((await status("fresh", "?when=now")).status).toBe(400);
  });

  it("answers an unknown vendor with a 404 naming it", async () => {
    const response = await status("nope");
    expect(response.status).toBe(404);
    expect(((await response.json()) as { detail: string }).detail).toContain('"nope"');
  });

  it("gives now as of a recent capture: the grid worst first with group names and the vendor's words, an unknown word kept as unknown", async () => {
    const body = (await (await status("fresh")).json()) as ViewBody;
    expect(Date.now() - Date.parse(body.at)).toBeLessThan(60_000);
    expect(Date.parse(body.at) - Date.parse(body.observedAt ?? "")).toBeGreaterThanOrEqual(60_000);
    expect(body.components.map((c) => [c.name, c.group, c.status, c.vendorStatus])).toEqual([
      ["CDN", null, "major-outage", "major_outage"],
      ["Compute", null, "partial-outage", "partial_outage"],
      ["Virtual machines", "Compute", "partial-outage", "partial_outage"],
      ["DNS", null, "degraded", "degraded_performance"],
      ["Legacy API", null, "unknown", "sunsetting"],
      ["Billing", null, "maintenance", "under_maintenance"],
      ["Functions", "Compute", "operational", "operational"],
    ]);
    expect(body.components.every((c) => c.since === body.observedAt && !c.inferred)).toBe(true);
  });

  it("says a vendor whose last good capture is more than three poll intervals old is unknown since that capture, with nothing open", async () => {
    const body = (await (await status("stale")).json()) as ViewBody;
    expect(body.observedAt).not.toBeNull();
    expect(body.components).toHaveLength(7);
    expect(body.components.every((c) => c.status === "unknown" && c.since === body.observedAt)).toBe(true);
    expect(body.components.find((c) => c.name === "CDN")?.vendorStatus).toBe("major_outage");
    expect(body.incidents).toEqual([]);
    // The same moment asked for is as observed then.
    const then = (await (await status("stale", `?at=${body.observedAt ?? ""}`)).json()) as ViewBody;
    expect(then.components.find((c) => c.name === "CDN")?.status).toBe("major-outage");
  });

  it("says a vendor never reached has no observation, and refuses any moment of it", async () => {
    const body = (await (await status("never")).json()) as ViewBody;
    expect([body.observedAt, body.components, body.incidents]).toEqual([null, [], []]);
    const response = await status("never", "?at=2025-01-01T00:00:00Z");
    expect(response.status).toBe(404);
    expect(((await response.json()) as { detail: string }).detail).toMatch(/no good capture of Never yet/);
  });
});
