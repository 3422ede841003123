import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { RedlineDb } from "@/db/client";
import { ensureVendor, type VendorRow } from "@/db/settings/vendors";
import { COMPONENT_STATUSES } from "@/lib/components/component-status";
import { incidentSchema } from "@/lib/incident";
import { ingestSnapshot } from "@/scrapers/ingest/ingest-snapshot";
import { PLATFORMS } from "@/scrapers/platforms";
import { formatIssuePath, type ParseContext, type Platform, SnapshotError } from "@/scrapers/platforms/platform";
import { corpusPath, corpusSnapshots, describeCorpus, observedAtOf } from "@/tests/support/corpus";
import { countRows, freshDatabase, queryRow } from "@/tests/support/database";
import { MUTATION_KINDS, mutateSnapshot } from "@/tests/support/mutate";
import { parseIncidents } from "@/tests/support/parsing";

/**
 * A parse that spends more CPU time than this counts as a hang. It is this process's own CPU
 * time, which other processes on a busy machine do not inflate as they do the wall clock.
 * Parsing is linear: a 5 MB feed costs one to two seconds of it (collector threads included);
 * a super-linear one takes minutes.
 */
const CPU_BUDGET_MS = 4_000;
const CPU_BUDGET_MS_PER_MB = 1_000;
const FIXTURE_VARIANTS_PER_PLATFORM = 300;
const CORPUS_VARIANTS_PER_SNAPSHOT = 30;
const INGESTED_VARIANTS_PER_PLATFORM = 20;
/** 5 MB strings and 10,000-level nesting per snapshot: they cost a thousand cheap variants each. */
const HEAVY_VARIANTS_PER_SNAPSHOT = 2;

interface Snapshot {
  file: string;
  source: string;
  observedAt: string;
}

const FIXTURES = path.join(__dirname, "..", "..", "fixtures");
const CACHET_SOURCE = "https://status.example-cachet.test/api/v1/incidents";

function fixture(file: string, observedAt: string, source = path.basename(file)): Snapshot {
  return { file: path.join(FIXTURES, file), source, observedAt };
}

/** What every component a grid states must be: an id, a name, a state of the vocabulary and the vendor's word. */
const componentReadingSchema = z.strictObject({
  id: z.string().min(1),
  name: z.string(),
  groupId: z.string().nullable(),
  isGroup: z.boolean(),
  status: z.enum(COMPONENT_STATUSES),
  vendorStatus: z.string(),
  vendorChangedAt: z.iso.datetime().nullable(),
});

/** Hand-written fixtures, at the capture times their own tests use: every platform has at least one. */
const FIXTURE_SNAPSHOTS: Record<string, readonly Snapshot[]> = {
  "statuspage-summary": [fixture("statuspage/summary-maintenance-offset.json", "2024-07-01T12:00:00.000Z")],
  "statuspage-incidents": [fixture("statuspage/scheduled-maintenances-no-page-url.json", "2024-07-01T12:00:00.000Z")],
  "statuspage-incident": [fixture("statuspage/incident-postmortem.json", "2024-07-01T12:00:00.000Z")],
  "statuspage-components": [fixture("statuspage/components-groups-handwritten.json", "2024-07-01T12:00:00.000Z")],
  "statuspage-atom": [fixture("statuspage/history-postmortem-maintenance.atom", "2024-03-13T00:00:00.000Z")],
  "statuspage-rss": [fixture("statuspage/history-apos-no-pubdate.rss", "2024-03-13T00:00:00.000Z")],
  "statuspage-atom-fallback": [fixture("statuspage/history-postmortem-maintenance.atom", "2024-03-13T00:00:00.000Z")],
  gcp: [
    fixture("gcp/current-schema-handwritten.json", "2026-02-01T00:00:00.000Z"),
    fixture("gcp/legacy-schema-handwritten-from-documented-shape.json", "2026-02-01T00:00:00.000Z"),
  ],
  slack: [fixture("slack/current-handwritten.json", "2021-12-01T00:00:00.000Z")],
  "slack-history": [fixture("slack/history-handwritten.json", "2021-12-01T00:00:00.000Z")],
  "aws-legacy": [fixture("aws/data-handwritten.json", "2021-06-10T00:00:00.000Z")],
  "incidentio-feed": [
    fixture("incidentio/feed-handwritten.atom", "2026-03-02T12:00:00.000Z"),
    fixture("incidentio/feed-handwritten.rss", "2026-03-02T12:00:00.000Z"),
  ],
  "incidentio-widget": [fixture("incidentio/widget-handwritten.json", "2026-03-02T12:00:00.000Z")],
  "incidentio-incidents": [fixture("incidentio/incidents-handwritten.json", "2026-03-02T12:00:00.000Z")],
  "instatus-summary": [fixture("instatus/summary-handwritten.json", "2026-03-02T12:00:00.000Z")],
  "instatus-components": [fixture("instatus/components-handwritten.json", "2026-03-02T12:00:00.000Z")],
  "betterstack-index": [fixture("betterstack/index-handwritten.json", "2026-03-02T12:00:00.000Z")],
  "betterstack-rss": [fixture("betterstack/feed-handwritten.rss", "2026-03-02T12:00:00.000Z")],
  "cachet-v2": [fixture("cachet/v2-incidents-handwritten.json", "2026-03-02T12:00:00.000Z", CACHET_SOURCE)],
  "cachet-v3": [fixture("cachet/v3-incidents-handwritten.json", "2026-03-02T12:00:00.000Z", CACHET_SOURCE)],
  "cachet-v2-components": [fixture("cachet/v2-components-handwritten.json", "2026-03-02T12:00:00.000Z")],
  "cachet-v2-groups": [fixture("cachet/v2-groups-handwritten.json", "2026-03-02T12:00:00.000Z")],
  "cachet-v3-components": [fixture("cachet/v3-components-handwritten.json", "2026-03-02T12:00:00.000Z")],
  "azure-rss": [fixture("azure/feed-handwritten.rss", "2026-03-02T12:00:00.000Z")],
  rss: [fixture("rss/changelog-handwritten.rss", "2026-03-04T00:00:00.000Z"), fixture("rss/blog-handwritten.atom", "2026-03-04T00:00:00.000Z")],
  "statuspage-incident-page": [
    fixture("statuspage-incident-page/incident-page-postmortem-handwritten.html", "2025-05-10T00:00:00.000Z", "https://status.example-sp.test/incidents/pm0modern001"),
    fixture("statuspage-incident-page/incident-page-postmortem-old-layout-handwritten.html", "2025-05-10T00:00:00.000Z"),
  ],
};

/** `count` non-empty snapshots of a corpus history folder, spread over its capture window. */
function historySnapshots(folder: string, count: number): Snapshot[] {
  const files = corpusSnapshots(folder).filter((file) => fs.statSync(file).size > 0);
  return Array.from({ length: count }, (_, i) => files[Math.floor(((i + 0.5) * files.length) / count)])
    .filter((file): file is string => file !== undefined)
    .map((file) => ({ file, source: path.basename(file), observedAt: observedAtOf(file) }));
}

function sample(file: string, observedAt = "2026-01-01T00:00:00.000Z", source = path.basename(file)): Snapshot {
  return { file: corpusPath("samples", file), source, observedAt };
}

/** When the DigitalOcean sample feeds were saved; their names carry no capture time. */
const DIGITALOCEAN_SAVED_AT = "2020-01-23T00:00:00.000Z";

/** Real snapshots per platform, listed lazily because the corpus may be absent. */
const CORPUS_SNAPSHOTS: Record<string, () => Snapshot[]> = {
  "statuspage-summary": () =>
    ["statuspage-summary-github-2025", "statuspage-summary-jira", "statuspage-summary-trello-nonutc"].flatMap((f) => historySnapshots(f, 2)),
  "statuspage-incidents": () => [sample("statuspage-incidents/github-jtprogru-weekly-incident.json")],
  "incidentio-incidents": () => [sample("statuspage-incidents/github-jtprogru-weekly-incident.json")],
  "statuspage-incident": () => historySnapshots("statuspage-incident-github-single", 3),
  "statuspage-atom": () => [
    ...historySnapshots("atom-github-history", 1),
    sample("statuspage-history-atom/digitalocean-2020-01-ruzyysmartt.atom", DIGITALOCEAN_SAVED_AT),
  ],
  "statuspage-atom-fallback": () => historySnapshots("atom-github-history", 1),
  "statuspage-rss": () => [sample("statuspage-history-rss/digitalocean-2020-01-ruzyysmartt.rss", DIGITALOCEAN_SAVED_AT)],
  gcp: () => [...historySnapshots("gcp-incidents", 2), sample("gcp-incidents/jtprogru-weekly-incident.json")],
  slack: () => historySnapshots("slack-current-2020", 3),
  "slack-history": () => [sample("slack-history/jtprogru-weekly-incident.json")],
  "aws-legacy": () => historySnapshots("aws-data-json-2021-12", 1),
  "cachet-v2": () => [
    sample("cachet-v2-incidents/andygrunwald-cachet-incidents_test-GetAll.json", undefined, CACHET_SOURCE),
    sample("cachet-v2-incidents/andygrunwald-cachet-incidents_test-GetAllUpdates.json", undefined, CACHET_SOURCE),
  ],
  "cachet-v3": () => [sample("cachet-v3-incidents/cachethq-docs-example.json", undefined, CACHET_SOURCE)],
  "instatus-summary": () => [sample("instatus-summary/instatus-docs-public-data-example.json")],
  rss: () => [sample("aws-rss/all-rss-jtprogru-weekly-incident.rss")],
  "statuspage-incident-page": () => [
    sample("statuspage-incident-html/govuk-notify-alphagov-statuspage-customisations.html"),
    sample(
      "statuspage-incident-html/digitalocean-d0glfj89j57y-2020-01-ruzyysmartt.DERIVED-decoded-from-mhtml.html",
      undefined,
      "https://status.digitalocean.com/incidents/d0glfj89j57y",
    ),
  ],
};

function contextOf(snapshot: Snapshot): ParseContext {
  return { vendor: "fuzzed", source: snapshot.source, observedAt: snapshot.observedAt };
}

/** A stable seed per platform and input, so a failure names a variant that can be regenerated. */
function seedOf(...parts: string[]): number {
  let hash = 2166136261;
  for (const char of parts.join("|")) hash = Math.imul(hash ^ (char.codePointAt(0) ?? 0), 16777619);
  return hash >>> 0;
}

function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message.slice(0, 200)}` : String(error).slice(0, 200);
}

/** What is wrong with how the platform treated one input, or null when it parsed or rejected it as invalid within its CPU budget. */
async function judgeParse(platform: Platform, body: Uint8Array, ctx: ParseContext): Promise<string | null> {
  const before = process.cpuUsage();
  const outcome = await platform.parse(body, ctx).then(
    (parsed) => ({ incidents: parsed.observations.map((o) => o.incident), components: parsed.grid?.components ?? [], error: null }),
    (error: unknown) => ({ incidents: [], components: [], error }),
  );
  const used = process.cpuUsage(before);
  const cpuMs = (used.user + used.system) / 1000;
  const budget = CPU_BUDGET_MS + (CPU_BUDGET_MS_PER_MB * body.length) / 1_048_576;
  if (cpuMs > budget) return `took ${Math.round(cpuMs)} ms of CPU time, over the ${Math.round(budget)} ms allowed for ${body.length} bytes`;
  if (outcome.error !== null) return outcome.error instanceof SnapshotError ? null : `crashed with ${describeError(outcome.error)}`;
  for (const incident of outcome.incidents) {
    const checked = incidentSchema.safeParse(incident);
    const issue = checked.error?.issues[0];
    if (issue) return `accepted incident ${JSON.stringify(incident.id)} that breaks incidentSchema at ${formatIssuePath(issue.path)}: ${issue.message}`;
  }
  for (const component of outcome.components) {
    const checked = componentReadingSchema.safeParse(component);
    const issue = checked.error?.issues[0];
    if (issue) return `accepted component ${JSON.stringify(component.id)} that breaks the reading's shape at ${formatIssuePath(issue.path)}: ${issue.message}`;
  }
  return null;
}

interface FuzzReport {
  inputs: number;
  kinds: Set<string>;
  problems: string[];
}

async function fuzzPlatform(platform: Platform, snapshots: readonly Snapshot[], variantsPerSnapshot: number): Promise<FuzzReport> {
  const report: FuzzReport = { inputs: 0, kinds: new Set(), problems: [] };
  for (const snapshot of snapshots) {
    const body = fs.readFileSync(snapshot.file);
    const seed = seedOf(platform.name, snapshot.source, path.basename(snapshot.file));
    for (const variant of mutateSnapshot(body, { seed, count: variantsPerSnapshot, heavy: HEAVY_VARIANTS_PER_SNAPSHOT })) {
      report.inputs += 1;
      report.kinds.add(variant.kind);
      const problem = await judgeParse(platform, variant.body, contextOf(snapshot));
      if (problem) report.problems.push(`${path.basename(snapshot.file)} seed ${seed}, ${variant.kind} (${variant.note}): ${problem}`);
    }
  }
  return report;
}

function snapshotsOf(platform: Platform): readonly Snapshot[] {
  const snapshots = FIXTURE_SNAPSHOTS[platform.name];
  if (!snapshots) throw new Error(`no fixture to mutate for platform ${platform.name}`);
  return snapshots;
}

describe("parser robustness on mutated hand-written fixtures", () => {
  it("has a fixture for every registered platform, and each parses unmutated into incidents or a grid", async () => {
    expect(PLATFORMS.map((p) => p.name).filter((name) => !FIXTURE_SNAPSHOTS[name])).toEqual([]);
    for (const platform of PLATFORMS) {
      for (const snapshot of snapshotsOf(platform)) {
        const parsed = await platform.parse(fs.readFileSync(snapshot.file), contextOf(snapshot));
        expect(parsed.observations.length + (parsed.grid?.components.length ?? 0), `${platform.name} ${snapshot.source}`).toBeGreaterThan(0);
      }
    }
  });

  for (const platform of PLATFORMS) {
    it(`${platform.name} parses every mutated fixture into valid incidents or rejects it as a SnapshotError, without hanging`, async () => {
      const snapshots = snapshotsOf(platform);
      const report = await fuzzPlatform(platform, snapshots, Math.ceil(FIXTURE_VARIANTS_PER_PLATFORM / snapshots.length));
      expect(report.problems).toEqual([]);
      expect([...report.kinds].sort()).toEqual([...MUTATION_KINDS].sort());
    });
  }
});

describeCorpus("parser robustness on mutated corpus snapshots", () => {
  for (const platform of PLATFORMS) {
    const listSnapshots = CORPUS_SNAPSHOTS[platform.name];
    if (!listSnapshots) continue;
    it(`${platform.name} parses every mutated real snapshot into valid incidents or rejects it as a SnapshotError, without hanging`, async () => {
      const snapshots = listSnapshots();
      const report = await fuzzPlatform(platform, snapshots, CORPUS_VARIANTS_PER_SNAPSHOT);
      expect(report.problems).toEqual([]);
      expect(report.inputs).toBe(snapshots.length * CORPUS_VARIANTS_PER_SNAPSHOT);
    });
  }
});

/** How the parser alone classifies a body, as parseSnapshot should record it. */
function expectedOutcome(platform: Platform, body: Uint8Array, ctx: ParseContext): Promise<string> {
  return parseIncidents(platform, body, ctx).then(
    () => "ok",
    (error: unknown) => (!(error instanceof SnapshotError) ? "a crash" : error.kind === "schema" ? "invalid" : "failed"),
  );
}

/** Ingest one body and list what is inconsistent between the result, the capture row and the version count. */
async function ingestAndCheck(db: RedlineDb, vendor: VendorRow, platform: Platform, input: { label: string; body: Uint8Array; ctx: ParseContext }): Promise<{ outcome: string; problems: string[] }> {
  const { label, body, ctx } = input;
  const expected = await expectedOutcome(platform, body, ctx);
  const before = { captures: await countRows(db, "captures"), versions: await countRows(db, "incident_versions") };
  const result = await ingestSnapshot(db, { vendor, platform, source: ctx.source, observedAt: ctx.observedAt, body });
  const row = await queryRow<{ outcome: string; error: string | null; bodyId: number | null; versionCount: number }>(
    db,
    "SELECT outcome, error, body_id AS bodyId, version_count AS versionCount FROM captures WHERE id = ?",
    result.captureId,
  );
  const added = { captures: await countRows(db, "captures") - before.captures, versions: await countRows(db, "incident_versions") - before.versions };
  const stated = { outcome: result.outcome, error: result.error, bodyKept: body.length > 0 && result.outcome !== "failed", versionCount: result.versionsAdded };
  const stored = row && { outcome: row.outcome, error: row.error, bodyKept: row.bodyId !== null, versionCount: row.versionCount };
  const problems: string[] = [];
  if (result.outcome !== expected) problems.push(`${label}: recorded ${result.outcome}, the parser says ${expected}`);
  if (added.captures !== 1) problems.push(`${label}: added ${added.captures} captures`);
  if (added.versions !== result.versionsAdded) problems.push(`${label}: added ${added.versions} versions, reported ${result.versionsAdded}`);
  if (JSON.stringify(stored) !== JSON.stringify(stated)) problems.push(`${label}: stored ${JSON.stringify(stored)}, reported ${JSON.stringify(stated)}`);
  if (result.outcome === "ok" ? result.error !== null : !result.error) problems.push(`${label}: ${result.outcome} with error ${JSON.stringify(result.error)}`);
  return { outcome: result.outcome, problems };
}

describe("ingesting mutated snapshots", () => {
  for (const platform of PLATFORMS) {
    it(`${platform.name} records each mutated snapshot as one whole capture: ok with its versions, or failed or invalid with an error`, async () => {
      const db = await freshDatabase();
      const vendor = await ensureVendor(db, { slug: "fuzzed", platform: platform.name });
      const [snapshot] = snapshotsOf(platform);
      if (!snapshot) throw new Error(`no fixture for ${platform.name}`);
      const original = fs.readFileSync(snapshot.file);
      const variants = mutateSnapshot(original, { seed: seedOf("ingest", platform.name), count: INGESTED_VARIANTS_PER_PLATFORM, heavy: 1 });
      const inputs = [{ label: "unmutated", body: original }, ...[...variants].map((v) => ({ label: `${v.kind} (${v.note})`, body: v.body }))];
      const problems: string[] = [];
      const outcomes = new Set<string>();
      for (const [i, { label, body }] of inputs.entries()) {
        const observedAt = new Date(Date.parse(snapshot.observedAt) + i * 60_000).toISOString();
        const checked = await ingestAndCheck(db, vendor, platform, { label, body, ctx: { ...contextOf(snapshot), observedAt } });
        outcomes.add(checked.outcome);
        problems.push(...checked.problems);
      }
      const versionTotal = (await queryRow<{ n: number }>(db, "SELECT coalesce(sum(version_count), 0) AS n FROM captures")) ?? { n: -1 };
      expect(problems).toEqual([]);
      expect(versionTotal.n).toBe(await countRows(db, "incident_versions"));
      expect(outcomes).toContain("ok");
      expect(outcomes.size).toBeGreaterThan(1);
    });
  }
});
