import fs from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import type { RedlineDb } from "@/db/client";
import { loadVendorExport } from "@/db/queries/incident-history";
import { ensureVendor, type VendorRow } from "@/db/settings/vendors";
import type { ComponentHistory } from "@/lib/components/component-history";
import type { ComponentStatus } from "@/lib/components/component-status";
import { ingestSnapshot } from "@/scrapers/ingest/ingest-snapshot";
import { importSnapshots, listSnapshotFolder } from "@/scrapers/ingest/import-snapshots";
import { getPlatform } from "@/scrapers/platforms";
import { corpusPath, corpusSnapshots, describeCorpus, observedAtOf } from "@/tests/support/corpus";
import { freshDatabase } from "@/tests/support/database";

/**
 * Formats that name components only inside incidents (Google Cloud products, Slack services, AWS
 * services, Azure service areas and regions): each component they name is in the worst state an
 * open incident naming it puts on it, operational once none does, always marked inferred.
 */

const T = (hhmm: string) => `2026-03-01T${hhmm}:00.000Z`;

async function vendorFor(platform: string): Promise<{ db: RedlineDb; vendor: VendorRow }> {
  const db = await freshDatabase();
  return { db, vendor: await ensureVendor(db, { slug: "acme", name: "Acme", platform }) };
}

async function ingest(db: RedlineDb, vendor: VendorRow, platformName: string, source: string, at: string, body: string): Promise<void> {
  const platform = getPlatform(platformName);
  if (!platform) throw new Error(`no platform ${platformName}`);
  const result = await ingestSnapshot(db, { vendor, platform, source, observedAt: at, body: Buffer.from(body) });
  expect(result.outcome, `${platformName} at ${at}: ${result.error ?? ""}`).toBe("ok");
}

async function components(db: RedlineDb, slug = "acme"): Promise<ComponentHistory[]> {
  const doc = await loadVendorExport(db, slug);
  if (!doc) throw new Error("no export");
  return doc.components ?? [];
}

/** "state@from-until" per state, with an i for an inferred one. */
const brief = (history: readonly ComponentHistory[]) =>
  Object.fromEntries(history.map((c) => [c.id, c.history.map((h) => `${h.status}${h.inferred ? "(i)" : ""}@${h.from.slice(11, 16)}-${h.until?.slice(11, 16) ?? "now"}`)]));

const gcpIncident = (end: string | null, severity = "medium") => ({
  id: "HW1", number: "1", begin: T("10:00").replace(".000Z", "+00:00"), created: "2026-03-01T10:00:00+00:00", modified: "2026-03-01T10:00:00+00:00",
  ...(end === null ? {} : { end }),
  external_desc: "Widgets and gadgets fail", severity, status_impact: "SERVICE_DISRUPTION", service_key: "widgets", service_name: "Cloud Widgets",
  updates: [{ created: "2026-03-01T10:00:00+00:00", modified: "2026-03-01T10:00:00+00:00", when: "2026-03-01T10:00:00+00:00", text: "Investigating.", status: "SERVICE_DISRUPTION", affected_locations: [] }],
  most_recent_update: { created: "2026-03-01T10:00:00+00:00", modified: "2026-03-01T10:00:00+00:00", when: "2026-03-01T10:00:00+00:00", text: "Investigating.", status: "SERVICE_DISRUPTION", affected_locations: [] },
  affected_products: [{ title: "Cloud Widgets", id: "widgets" }, { title: "Cloud Gadgets", id: "gadgets" }],
  uri: "incidents/HW1",
});

const slackIncident = (type: string, status: string) => ({
  id: 7001, date_created: "2021-03-14T01:10:00-08:00", date_updated: "2021-03-14T01:10:00-08:00", title: "Trouble sending messages", type, status,
  url: "https://status.slack.com/2021-03/7001", services: ["Messaging", "Calls"], notes: [{ date_created: "2021-03-14T01:10:00-08:00", body: "We're on it." }],
});

const awsEvent = (summary: string, status: string) => ({
  service_name: "Amazon EC2 (N. Virginia)", summary, date: "1772359200", status, details: "",
  description: "<div><span class=\"yellowfg\">2:00 AM PST</span>&nbsp;We are investigating launch errors.</div>", service: "ec2-us-east-1",
});

const azureFeed = (items: string) =>
  `<?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel><title>Azure Status</title><link>https://azure.status.microsoft/en-us/status/</link><description>d</description>${items}</channel></rss>`;
const azureItem = `<item><guid isPermaLink="false">VM-WEU-1</guid><link>https://azure.status.microsoft/en-us/status</link><category>Virtual Machines</category><category>West Europe</category><title>Virtual Machines - West Europe - Investigating</title><description>&lt;p&gt;Some customers cannot start VMs.&lt;/p&gt;</description><pubDate>Sun, 01 Mar 2026 10:00:00 Z</pubDate></item>`;

interface Case {
  platform: string;
  source: string;
  open: string;
  closed: string;
  /** The state the open incident puts on what it names, and what it names. */
  state: ComponentStatus;
  ids: string[];
}

const CASES: Case[] = [
  { platform: "gcp", source: "https://status.cloud.google.com/incidents.json", open: JSON.stringify([gcpIncident(null)]), closed: JSON.stringify([gcpIncident("2026-03-01T10:50:00+00:00")]), state: "partial-outage", ids: ["gadgets", "widgets"] },
  { platform: "slack", source: "https://slack-status.com/api/v2.0.0/current", open: JSON.stringify({ status: "active", date_created: "2021-03-14T01:10:00-08:00", date_updated: "2021-03-14T01:10:00-08:00", active_incidents: [slackIncident("outage", "active")] }), closed: JSON.stringify({ status: "ok", date_created: "2021-03-14T01:10:00-08:00", date_updated: "2021-03-14T02:10:00-08:00", active_incidents: [] }), state: "partial-outage", ids: ["Calls", "Messaging"] },
  { platform: "slack-history", source: "https://slack-status.com/api/v2.0.0/history", open: JSON.stringify([slackIncident("incident", "active")]), closed: JSON.stringify([slackIncident("incident", "resolved")]), state: "degraded", ids: ["Calls", "Messaging"] },
  { platform: "aws-legacy", source: "https://status.aws.amazon.com/data.json", open: JSON.stringify({ current: [awsEvent("Increased launch errors", "2")], archive: [] }), closed: JSON.stringify({ current: [], archive: [awsEvent("[RESOLVED] Increased launch errors", "0")] }), state: "degraded", ids: ["ec2-us-east-1"] },
  { platform: "azure-rss", source: "https://azure.status.microsoft/en-us/status/feed/", open: azureFeed(azureItem), closed: azureFeed(""), state: "degraded", ids: ["Virtual Machines", "West Europe"] },
];

describe("component states inferred from the open incidents", () => {
  it.each(CASES.map((c) => [c.platform, c] as const))("%s: each component an open incident names is in the state it puts on it, operational once it closes, marked inferred", async (name, c) => {
    const { db, vendor } = await vendorFor(name);
    await ingest(db, vendor, name, c.source, T("10:00"), c.open);
    await ingest(db, vendor, name, c.source, T("10:30"), c.open);
    await ingest(db, vendor, name, c.source, T("11:00"), c.closed);
    const history = await components(db);
    expect(brief(history)).toEqual(Object.fromEntries(c.ids.map((id) => [id, [`${c.state}(i)@10:00-11:00`, "operational(i)@11:00-now"]])));
    expect(history.flatMap((h) => h.history).every((h) => h.inferred && h.vendorChangedAt === null)).toBe(true);
    const doc = await loadVendorExport(db, "acme");
    // No stated state, so nothing the vendor left unexplained either: an open incident explains it.
    expect(doc?.quietDegradations).toEqual([]);
  });

  it("lets a state the vendor states win over one inferred from another source of the same vendor, and infers nothing over it", async () => {
    const { db, vendor } = await vendorFor("gcp");
    const gcp = CASES[0];
    if (!gcp) throw new Error("no gcp case");
    const grid = (status: string) => JSON.stringify({
      page: { id: "p1", name: "Acme", url: "https://status.acme.test" },
      components: [{ id: "widgets", name: "Widgets", status, group_id: null, group: false }, { id: "gadgets", name: "Gadgets", status: "operational", group_id: null, group: false }],
    });
    await ingest(db, vendor, "gcp", gcp.source, T("10:00"), gcp.open);
    await ingest(db, vendor, "statuspage-components", "https://status.acme.test/api/v2/components.json", T("10:20"), grid("degraded_performance"));
    await ingest(db, vendor, "gcp", gcp.source, T("10:40"), JSON.stringify([gcpIncident(null, "high")]));
    await ingest(db, vendor, "statuspage-components", "https://status.acme.test/api/v2/components.json", T("10:50"), grid("operational"));
    await ingest(db, vendor, "gcp", gcp.source, T("11:00"), gcp.closed);
    expect(brief(await components(db))).toEqual({
      widgets: ["partial-outage(i)@10:00-10:20", "degraded@10:20-10:50", "operational@10:50-now"],
      gadgets: ["partial-outage(i)@10:00-10:20", "operational@10:20-now"],
    });
  });
});

/**
 * The reference, worked out here from the raw files: for each good snapshot, the components each
 * listed incident names and the state it puts on them while open; each component named so far in
 * the worst of them, operational when no open incident names it.
 */
type Named = Array<{ ids: string[]; state: ComponentStatus | null }>;

const GCP_SEVERITY: Record<string, ComponentStatus> = { low: "degraded", medium: "partial-outage", high: "major-outage" };
const SLACK_TYPE: Record<string, ComponentStatus | null> = { outage: "partial-outage", incident: "degraded", notice: null };
const RESOLVED = new Set(["resolved", "completed", "postmortem", "closed", "fixed", "ok"]);
const RANK: Record<ComponentStatus, number> = { operational: 0, maintenance: 1, unknown: 2, degraded: 3, "partial-outage": 4, "major-outage": 5 };

/** The first listing of each id, as the parsers keep it. */
function firstById<T>(items: readonly T[], id: (item: T) => string): T[] {
  const byId = new Map<string, T>();
  for (const item of items) if (!byId.has(id(item))) byId.set(id(item), item);
  return [...byId.values()];
}

const READERS: Record<string, (raw: unknown) => Named> = {
  gcp: (raw) =>
    firstById(raw as Array<{ id: string; end?: string; severity?: string; affected_products?: Array<{ id: string }> }>, (i) => i.id).map((i) => ({
      ids: (i.affected_products ?? []).map((p) => p.id),
      state: i.end ? null : (GCP_SEVERITY[i.severity ?? ""] ?? "degraded"),
    })),
  slack: (raw) =>
    firstById((raw as { active_incidents?: Array<{ id: number; type: string; status: string; services?: string[] }> }).active_incidents ?? [], (i) => String(i.id)).map((i) => ({
      ids: (i.services ?? []).filter((s) => s.trim() !== ""),
      state: RESOLVED.has(i.status) ? null : (SLACK_TYPE[i.type] ?? null),
    })),
  "aws-legacy": (raw) => {
    const { current = [], archive = [] } = raw as { current?: AwsRaw[]; archive?: AwsRaw[] };
    const key = (e: AwsRaw) => e.service?.trim() || e.service_name.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "-").replace(/^-+|-+$/g, "");
    return firstById([...current, ...archive], (e) => `${e.date}-${key(e)}`).map((e) => ({
      ids: [key(e)],
      state: isMarkedResolved(e.summary) || String(e.status) === "0" ? null : "degraded",
    }));
  },
};
interface AwsRaw { service_name: string; summary: string; date: string; status: string | number; service?: string }

/** AWS marks a resolved event at the start of its summary, or of any of its " | "-separated translations. */
function isMarkedResolved(summary: string): boolean {
  return summary.split(/[|｜]/).some((part) => /^\s*\[(RESOLVED|解決済み|已解決|已解决)\]/i.test(part));
}

interface RefRun { status: ComponentStatus; from: string; until: string | null }

function referenceRuns(folder: string, read: (raw: unknown) => Named): Map<string, RefRun[]> {
  const runs = new Map<string, RefRun[]>();
  for (const file of corpusSnapshots(folder)) {
    const text = fs.readFileSync(file, "utf8");
    if (text.trim() === "") continue;
    const at = observedAtOf(file);
    const named = read(JSON.parse(text));
    const worst = new Map<string, ComponentStatus>();
    for (const { ids, state } of named) {
      for (const id of ids) {
        const was = worst.get(id) ?? "operational";
        worst.set(id, state !== null && RANK[state] > RANK[was] ? state : was);
      }
    }
    for (const id of runs.keys()) if (!worst.has(id)) worst.set(id, "operational");
    for (const [id, status] of worst) {
      const list = runs.get(id) ?? [];
      runs.set(id, list);
      const last = list.at(-1);
      if (last?.status === status) continue;
      if (last) last.until = at;
      list.push({ status, from: at, until: null });
    }
  }
  return runs;
}

describeCorpus("corpus: component states inferred from Google Cloud, Slack and AWS histories", () => {
  const FOLDERS = [
    { folder: "gcp-incidents", platform: "gcp" },
    { folder: "slack-current-2020", platform: "slack" },
    { folder: "aws-data-json-2021-12", platform: "aws-legacy" },
  ];
  const imported = new Map<string, ComponentHistory[]>();

  beforeAll(async () => {
    for (const { folder, platform } of FOLDERS) {
      const parser = getPlatform(platform);
      if (!parser) throw new Error(`no platform ${platform}`);
      const db = await freshDatabase();
      await importSnapshots(db, await ensureVendor(db, { slug: folder, platform }), parser, listSnapshotFolder(corpusPath(folder)).snapshots);
      imported.set(folder, await components(db, folder));
    }
  }, 600_000);

  for (const { folder, platform } of FOLDERS) {
    it(`${folder}: every inferred state and its changes match the reference worked out from the raw files`, () => {
      const reference = referenceRuns(folder, READERS[platform] ?? (() => []));
      const got = imported.get(folder) ?? [];
      const actual = new Map(got.map((c) => [c.id, c.history.map((h) => ({ status: h.status, from: h.from, until: h.until }))]));
      expect(Object.fromEntries(actual)).toEqual(Object.fromEntries(reference));
      expect(got.flatMap((c) => c.history).every((h) => h.inferred)).toBe(true);
      // The histories hold degradations, not only a flat operational line.
      expect(got.some((c) => c.history.some((h) => h.status !== "operational"))).toBe(true);
    });
  }
});
