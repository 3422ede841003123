import { beforeAll, describe, expect, it } from "vitest";
import type { RedlineDb } from "@/db/client";
import { loadVendorExport } from "@/db/queries/incident-history";
import { findQuietDegradation, listComponentGroups, listQuietDegradations, listQuietDegradationsPerVendor, loadComponentEntries } from "@/db/queries/quiet-degradations";
import { ensureVendor, type VendorRow } from "@/db/settings/vendors";
import { importSnapshots, listSnapshotFolder } from "@/scrapers/ingest/import-snapshots";
import { getPlatform } from "@/scrapers/platforms";
import { corpusPath, describeCorpus } from "@/tests/support/corpus";
import { freshDatabase } from "@/tests/support/database";
import { archiveQuietDegradations, T } from "@/tests/support/quiet-archive";

let db: RedlineDb;
let calm: VendorRow;
let cdn: VendorRow;

beforeAll(async () => {
  db = await freshDatabase();
  ({ calm, cdn } = await archiveQuietDegradations(db));
});

const brief = (rows: ReadonlyArray<{ vendor: { slug: string }; from: string; until: string | null; components: ReadonlyArray<{ name: string }> }>) =>
  rows.map((r) => `${r.vendor.slug} ${r.from.slice(11, 16)}-${r.until?.slice(11, 16) ?? "now"} ${r.components.map((c) => c.name).join("+")}`);

describe("quiet degradations as readers list them", () => {
  it("lists every vendor's stretches newest first, their components named as last listed, with groups", async () => {
    const page = await listQuietDegradations(db, {}, 50);
    expect(brief(page.rows)).toEqual([
      "calm 11:00-now Frankfurt",
      "busy-cdn 10:45-10:50 London (LHR)",
      "busy-cdn 10:35-10:40 London (LHR)",
      "busy-cdn 10:25-10:30 London (LHR)",
      "busy-cdn 10:15-10:20 London (LHR)",
      "calm 10:10-10:40 DNS+REST API",
      "busy-cdn 10:05-10:10 London (LHR)",
    ]);
    expect(page.rows.find((r) => r.from === T("10:10"))?.components).toEqual([
      { id: "dns", name: "DNS", group: null },
      { id: "api", name: "REST API", group: "Core platform" },
    ]);
    expect(page.next).toBeNull();
  });

  it("pages by cursor without gaps or repeats", async () => {
    const all = brief((await listQuietDegradations(db, {}, 50)).rows);
    const seen: string[] = [];
    let before = null;
    for (let pages = 0; pages < 10; pages++) {
      const page = await listQuietDegradations(db, { before }, 3);
      seen.push(...brief(page.rows));
      if (!page.next) break;
      before = page.next;
    }
    expect(seen).toEqual(all);
  });

  it("narrows to vendors, a component group (any case) and a component, and to a start period", async () => {
    expect(brief((await listQuietDegradations(db, { vendorIds: [calm.id] }, 50)).rows)).toEqual(["calm 11:00-now Frankfurt", "calm 10:10-10:40 DNS+REST API"]);
    expect(brief((await listQuietDegradations(db, { group: "europe" }, 50)).rows)).toEqual(["calm 11:00-now Frankfurt"]);
    expect(brief((await listQuietDegradations(db, { group: "Core platform" }, 50)).rows)).toEqual(["calm 10:10-10:40 DNS+REST API"]);
    expect(brief((await listQuietDegradations(db, { group: "Edge network", vendorIds: [calm.id] }, 50)).rows)).toEqual([]);
    expect((await listQuietDegradations(db, { group: "No such group" }, 50)).rows).toEqual([]);
    expect(brief((await listQuietDegradations(db, { component: "dns" }, 50)).rows)).toEqual(["calm 10:10-10:40 DNS+REST API"]);
    expect(brief((await listQuietDegradations(db, { vendorIds: [cdn.id], since: T("10:15"), until: T("10:35") }, 50)).rows)).toEqual([
      "busy-cdn 10:25-10:30 London (LHR)",
      "busy-cdn 10:15-10:20 London (LHR)",
    ]);
  });

  it("narrows a watchlist's vendors to the components it names", async () => {
    const rows = (await listQuietDegradations(db, { watch: [{ vendorId: calm.id, components: ["Frankfurt"] }, { vendorId: cdn.id, components: null }] }, 50)).rows;
    expect(brief(rows).filter((r) => r.startsWith("calm"))).toEqual(["calm 11:00-now Frankfurt"]);
    expect(brief(rows).filter((r) => r.startsWith("busy-cdn"))).toHaveLength(5);
  });

  it("pages a narrowed list by cursor too", async () => {
    const first = await listQuietDegradations(db, { group: "edge network" }, 2);
    expect(brief(first.rows)).toEqual(["busy-cdn 10:45-10:50 London (LHR)", "busy-cdn 10:35-10:40 London (LHR)"]);
    const second = await listQuietDegradations(db, { group: "edge network", before: first.next }, 2);
    expect(brief(second.rows)).toEqual(["busy-cdn 10:25-10:30 London (LHR)", "busy-cdn 10:15-10:20 London (LHR)"]);
  });

  it("fills a page of every vendor's with lines of each, reading past a busy vendor's older stretches rather than letting them fill it", async () => {
    const options = { lines: 5, perVendor: 3, maxScanned: 100 };
    const first = await listQuietDegradationsPerVendor(db, {}, options);
    // Busy CDN's fourth stretch is read (to be folded) and the page goes on to Calm Cloud's older one.
    expect(brief(first.rows)).toEqual([
      "calm 11:00-now Frankfurt",
      "busy-cdn 10:45-10:50 London (LHR)",
      "busy-cdn 10:35-10:40 London (LHR)",
      "busy-cdn 10:25-10:30 London (LHR)",
      "busy-cdn 10:15-10:20 London (LHR)",
      "calm 10:10-10:40 DNS+REST API",
    ]);
    const second = await listQuietDegradationsPerVendor(db, { before: first.next }, options);
    expect(brief(second.rows)).toEqual(["busy-cdn 10:05-10:10 London (LHR)"]);
    expect(second.next).toBeNull();
    const bounded = await listQuietDegradationsPerVendor(db, {}, { lines: 50, perVendor: 1, maxScanned: 3 });
    expect(bounded.rows).toHaveLength(3);
    expect(bounded.next).toEqual(bounded.rows[2]?.cursor);
  });

  it("lists the groups listed now, and names the components asked for as last listed, with their groups", async () => {
    expect((await listComponentGroups(db)).map((g) => `${g.name}:${g.key}`)).toEqual(["Core platform:core", "Edge network:edge", "Europe:eu"]);
    expect((await listComponentGroups(db, cdn.id)).map((g) => g.name)).toEqual(["Edge network"]);
    const entries = await loadComponentEntries(db, calm.id, ["fra", "dns", "nope"]);
    expect(entries.get("fra")).toEqual({ key: "fra", name: "Frankfurt", groupKey: "eu", isGroup: false });
    // The groups they sit in come along; nothing else does.
    expect([...entries.keys()].sort()).toEqual(["dns", "eu", "fra"]);
    expect(entries.get("eu")?.isGroup).toBe(true);
  });

  it("finds one stretch by its vendor and start, and nothing at another instant", async () => {
    expect((await findQuietDegradation(db, calm.id, T("10:10")))?.components.map((c) => c.name)).toEqual(["DNS", "REST API"]);
    expect(await findQuietDegradation(db, calm.id, T("10:20"))).toBeUndefined();
  });
});

describeCorpus("quiet degradations of real Statuspage histories, as readers list them", () => {
  // The two histories with stretches in them (GitHub's 2025 summary has none).
  for (const folder of ["statuspage-summary-jira", "statuspage-summary-trello-nonutc"]) {
    it(`${folder}: every recorded stretch is listed once, newest first, by pages of three, its components named as the export names them`, async () => {
      const local = await freshDatabase();
      const platform = getPlatform("statuspage-summary");
      if (!platform) throw new Error("no platform");
      const vendor = await ensureVendor(local, { slug: "real", name: "Real", platform: platform.name });
      await importSnapshots(local, vendor, platform, listSnapshotFolder(corpusPath(folder)).snapshots);
      const exported = await loadVendorExport(local, "real");
      const names = new Map((exported?.components ?? []).map((c) => [c.id, c.name]));
      const recorded = [...(exported?.quietDegradations ?? [])].reverse();
      expect(recorded.length).toBeGreaterThan(0);
      const listed = [];
      let before = null;
      for (let pages = 0; pages < 100; pages++) {
        const page = await listQuietDegradations(local, { vendorIds: [vendor.id], before }, 3);
        listed.push(...page.rows);
        if (!page.next) break;
        before = page.next;
      }
      expect(listed.map((q) => ({ from: q.from, until: q.until, components: q.components.map((c) => c.id).sort() }))).toEqual(recorded);
      for (const q of listed) for (const c of q.components) expect(c.name).toBe(names.get(c.id));
    });
  }
});
