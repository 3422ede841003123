import { beforeAll, expect, it } from "vitest";
import type { RedlineDb } from "@/db/client";
import { listChanges } from "@/db/queries/changes";
import { ensureVendor } from "@/db/settings/vendors";
import type { ChangeKindName } from "@/lib/change-kinds";
import { QUIET_EDIT_KINDS } from "@/lib/quiet-edits";
import { importSnapshots, listSnapshotFolder } from "@/scrapers/ingest/import-snapshots";
import { getPlatform } from "@/scrapers/platforms";
import { corpusPath, describeCorpus } from "@/tests/support/corpus";
import { freshDatabase } from "@/tests/support/database";
import { readVersionRows, type VersionRow as Row } from "@/tests/support/version-rows";

/**
 * GitHub's summary.json (2025, every 15 minutes; ids, impact, millisecond times) and its
 * history.atom (2025-26, daily; no ids, no impact, minute times, the updates after resolution)
 * imported into one vendor: the merged archive may only report what one of the two shows alone.
 */
const SUMMARY = { folder: "statuspage-summary-github-2025", platform: "statuspage-summary" };
const ATOM = { folder: "atom-github-history", platform: "statuspage-atom" };

type VersionRow = Row<{ body?: string } | null>;

async function archive(parts: ReadonlyArray<typeof SUMMARY>): Promise<RedlineDb> {
  const db = await freshDatabase();
  const vendor = await ensureVendor(db, { slug: "github", name: "GitHub", platform: "statuspage" });
  for (const part of parts) {
    const platform = getPlatform(part.platform);
    if (!platform) throw new Error(`no platform ${part.platform}`);
    await importSnapshots(db, vendor, platform, listSnapshotFolder(corpusPath(part.folder)).snapshots);
  }
  return db;
}

const versions = (db: RedlineDb): Promise<VersionRow[]> => readVersionRows(db);

/** Text compared by its words: the feed's update texts are recovered from HTML. */
function words(text: string | undefined): string {
  return (text ?? "").toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w !== "").join(" ");
}

function reappearances(rows: readonly VersionRow[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const r of rows) if (r.kinds.includes("incident-reappeared")) counts.set(r.providerId, (counts.get(r.providerId) ?? 0) + 1);
  return counts;
}

describeCorpus("corpus: GitHub's summary.json and history.atom as two sources of one vendor", () => {
  const state = {} as { alone: VersionRow[]; summary: VersionRow[]; atom: VersionRow[]; summaryFirst: VersionRow[]; atomFirst: VersionRow[]; merged: RedlineDb };
  beforeAll(async () => {
    state.summary = await versions(await archive([SUMMARY]));
    state.atom = await versions(await archive([ATOM]));
    state.alone = [...state.summary, ...state.atom];
    state.merged = await archive([SUMMARY, ATOM]);
    state.summaryFirst = await versions(state.merged);
    state.atomFirst = await versions(await archive([ATOM, SUMMARY]));
  });

  /** The Atom feed's first good capture: when the feed alone archived its first incidents. */
  const atomFirstCapture = () => state.atom.map((r) => r.observedAt).sort()[0] ?? "";
  /** What the merged archive recorded at that capture of incidents summary.json had archived before it. */
  const accounts = () => {
    const at = atomFirstCapture();
    const archivedBefore = new Set(state.summary.filter((r) => r.observedAt < at).map((r) => r.providerId));
    const atCapture = state.summaryFirst.filter((r) => r.observedAt === at);
    return { at, known: atCapture.filter((r) => archivedBefore.has(r.providerId)), unknown: atCapture.filter((r) => !archivedBefore.has(r.providerId)) };
  };

  it("records what the Atom feed first says of incidents summary.json archived as a new source's account, with the feed's own times", () => {
    const { at, known, unknown } = accounts();
    expect(known.length).toBeGreaterThanOrEqual(10);
    expect(known.map((r) => r.kinds)).toEqual(known.map(() => ["new-source-report"]));
    expect(unknown.length).toBeGreaterThan(0);
    expect(unknown.map((r) => r.kinds)).toEqual(unknown.map(() => ["incident-new"]));
    const givenByAtom = new Map(state.atom.filter((r) => r.observedAt === at).map((r) => [r.providerId, r.changes]));
    const timeOf = (value: unknown) => (value as { displayAt?: string | null } | null)?.displayAt ?? null;
    for (const r of known) {
      const given = givenByAtom.get(r.providerId) ?? [];
      const end = r.changes.find((c) => c.field === "resolvedAt");
      if (end) expect(end.after, r.providerId).toBe(given.find((c) => c.field === "resolvedAt")?.after);
      const atomTimes = new Set(given.filter((c) => c.field === "update").map((c) => timeOf(c.after)));
      for (const c of r.changes.filter((c) => c.field === "update" && c.kind === "added")) expect(atomTimes.has(timeOf(c.after)), r.providerId).toBe(true);
      expect(r.headline).toMatch(/^Reported by a newly added source at its first capture, not seen as it happened: /);
      expect(r.headline).not.toMatch(/Status changed|new updates were posted/);
    }
    expect(known.filter((r) => r.headline.includes("status Resolved (was Investigating)")).length).toBeGreaterThan(0);
  });

  it("reports what the Atom feed says from its second capture on as news, and never calls anything else a new source's account", () => {
    const { at } = accounts();
    expect(state.summaryFirst.filter((r) => r.observedAt !== at && r.kinds.includes("new-source-report")).map((r) => `${r.providerId} ${r.observedAt}`)).toEqual([]);
    expect(state.summaryFirst.filter((r) => r.observedAt > at && r.kinds.includes("incident-resolved")).length).toBeGreaterThan(50);
  });

  it("leaves a new source's account out of the quiet edits and the new incidents, and lists it among every change", async () => {
    const { at, known, unknown } = accounts();
    const until = new Date(Date.parse(at) + 1).toISOString();
    const listed = async (kinds?: readonly ChangeKindName[]) => (await listChanges(state.merged, { since: at, until, ...(kinds ? { kinds } : {}) }, 500)).rows.map((r) => r.providerId).sort();
    expect(await listed()).toEqual([...known, ...unknown].map((r) => r.providerId).sort());
    expect(await listed(["incident-new"])).toEqual(unknown.map((r) => r.providerId).sort());
    expect(await listed(QUIET_EDIT_KINDS)).toEqual([]);
    expect(await listed(["incident-resolved", "update-posted", "status-changed"])).toEqual([]);
    expect(await listed(["new-source-report"])).toEqual(known.map((r) => r.providerId).sort());
  });

  it("reports no field change that neither source shows alone at that capture", () => {
    const fieldsAt = new Map<string, Set<string>>();
    for (const r of state.alone) {
      const key = `${r.providerId} ${r.observedAt}`;
      fieldsAt.set(key, new Set([...(fieldsAt.get(key) ?? []), ...r.changes.map((c) => c.field)]));
    }
    const invented = state.summaryFirst.flatMap((r) =>
      r.changes.filter((c) => c.field !== "presence" && !fieldsAt.get(`${r.providerId} ${r.observedAt}`)?.has(c.field)).map((c) => `${r.providerId} ${r.observedAt} ${c.field}`),
    );
    expect(invented).toEqual([]);
    expect(state.summaryFirst.flatMap((r) => r.changes).length).toBeGreaterThan(4_000);
  });

  it("reports each update change with the text one source alone shows changing at that capture", () => {
    const updatesAt = new Map<string, Set<string>>();
    for (const r of state.alone) {
      const key = `${r.providerId} ${r.observedAt}`;
      const set = updatesAt.get(key) ?? new Set<string>();
      for (const c of r.changes) if (c.field === "update") set.add(`${c.kind} ${words((c.after ?? c.before)?.body)}`);
      updatesAt.set(key, set);
    }
    const invented = state.summaryFirst.flatMap((r) =>
      r.changes
        .filter((c) => c.field === "update" && !updatesAt.get(`${r.providerId} ${r.observedAt}`)?.has(`${c.kind} ${words((c.after ?? c.before)?.body)}`))
        .map((c) => `${r.providerId} ${r.observedAt} ${c.kind}`),
    );
    expect(invented).toEqual([]);
  });

  it("invents none of the artefacts of mixing the two: no downgrade to a missing impact, no update removed for lack of ids", () => {
    const count = (rows: readonly VersionRow[], kind: string) => rows.filter((r) => r.kinds.includes(kind)).length;
    for (const kind of ["impact-downgraded", "update-removed", "timing-changed", "update-backdated"]) {
      expect(count(state.summaryFirst, kind), kind).toBeLessThanOrEqual(count(state.summary, kind) + count(state.atom, kind));
    }
  });

  it("lets no incident reappear more often than in either source alone", () => {
    const summary = reappearances(state.summary);
    const atom = reappearances(state.atom);
    const more = [...reappearances(state.summaryFirst)].filter(([id, n]) => n > Math.max(summary.get(id) ?? 0, atom.get(id) ?? 0));
    expect(more).toEqual([]);
  });

  it("gives the same history whichever source is imported first", () => {
    const line = (r: VersionRow) => `${r.providerId} #${r.seq} ${r.observedAt} ${r.hash} ${r.kinds.join(",")}`;
    expect(state.atomFirst.map(line)).toEqual(state.summaryFirst.map(line));
  });
});
