import fs from "node:fs";
import { beforeAll, expect, it } from "vitest";
import type { RedlineDb } from "@/db/client";
import { ensureVendor } from "@/db/settings/vendors";
import { changeKindCode, type ChangeKindName } from "@/lib/change-kinds";
import { type ImportSummary, importSnapshots, listSnapshotFolder } from "@/scrapers/ingest/import-snapshots";
import { getPlatform } from "@/scrapers/platforms";
import { CORPUS_FOLDERS, corpusPath, describeCorpus } from "@/tests/support/corpus";
import { freshDatabase, queryRow, queryRows } from "@/tests/support/database";
import { readVersionRows, type VersionRow } from "@/tests/support/version-rows";

interface History {
  db: RedlineDb;
  first: ImportSummary;
  second: ImportSummary;
  /** Every version recorded, read once after the imports, with its incident's provider id. */
  versions: VersionRow[];
  kindCounts: Map<number, number>;
}

async function readHistory(db: RedlineDb): Promise<Pick<History, "versions" | "kindCounts">> {
  const versions = await readVersionRows(db);
  const counts = await queryRows<{ kind: number; n: number }>(db, "SELECT kind, count(*) AS n FROM version_kinds GROUP BY kind");
  return { versions, kindCounts: new Map(counts.map((c) => [c.kind, c.n])) };
}

/** The changes (as JSON text) of the versions observed at a time whose kinds include `kind`. */
function changesAt(history: History, observedAt: string, kind: string): string[] {
  return history.versions.filter((v) => v.observedAt === observedAt && v.kinds.includes(kind)).map((v) => JSON.stringify(v.changes));
}

/** Import one corpus folder twice into a fresh database; the history and both summaries. */
function importFolder(folder: string) {
  const spec = CORPUS_FOLDERS.find((f) => f.folder === folder);
  const platform = spec && getPlatform(spec.platform);
  if (!spec || !platform) throw new Error(`unknown corpus folder ${folder}`);
  const state: History = {} as never;
  beforeAll(async () => {
    const db = await freshDatabase();
    const vendor = await ensureVendor(db, { slug: spec.vendor, platform: platform.name });
    const { snapshots } = listSnapshotFolder(corpusPath(folder));
    state.db = db;
    state.first = await importSnapshots(db, vendor, platform, snapshots);
    state.second = await importSnapshots(db, vendor, platform, snapshots);
    Object.assign(state, await readHistory(db));
  });
  const versions = (providerId: string): VersionRow[] => state.versions.filter((v) => v.providerId === providerId);
  /** The version of an incident observed at a snapshot's file time (e.g. 20250206T093723Z). */
  const versionAt = (providerId: string, fileTime: string): VersionRow | undefined => {
    const iso = `${fileTime.slice(0, 4)}-${fileTime.slice(4, 6)}-${fileTime.slice(6, 8)}T${fileTime.slice(9, 11)}:${fileTime.slice(11, 13)}:${fileTime.slice(13, 15)}.000Z`;
    return versions(providerId).find((v) => v.observedAt === iso);
  };
  const kindCount = (kind: ChangeKindName): number => {
    const code = changeKindCode(kind);
    if (code === undefined) throw new Error(`unknown change kind ${kind}`);
    return state.kindCounts.get(code) ?? 0;
  };
  const zeroByteFiles = () => fs.readdirSync(corpusPath(folder)).filter((f) => /^\d{8}T/.test(f) && fs.statSync(corpusPath(folder, f)).size === 0).length;
  return { state, versions, versionAt, kindCount, zeroByteFiles };
}

function itImportsCleanlyAndIdempotently(h: ReturnType<typeof importFolder>, snapshots: number) {
  it("imports every snapshot, failing exactly the empty files, and adds nothing the second time", () => {
    expect(h.state.first.captures).toBe(snapshots);
    expect(h.state.first.invalid).toBe(0);
    expect(h.state.first.failed).toBe(h.zeroByteFiles());
    expect(h.state.second).toMatchObject({ captures: 0, duplicates: snapshots, versions: 0 });
  });
}

describeCorpus("corpus: statuspage-summary-jira", () => {
  const h = importFolder("statuspage-summary-jira");
  itImportsCleanlyAndIdempotently(h, 300);
  it("finds impact changed in both directions", () => {
    expect(h.versionAt("0g08w3s3xd87", "20250206T093723Z")?.kinds).toContain("impact-downgraded");
    expect(h.versionAt("xwthpprq7mhr", "20250317T144054Z")?.kinds).toContain("impact-escalated");
    expect(h.kindCount("impact-downgraded") + h.kindCount("impact-escalated")).toBe(11);
  });
  it("finds the update moved by five hours and rewritten", () => {
    const v = h.versionAt("8pz81xy76gkm", "20250611T030929Z");
    expect(v?.kinds).toEqual(expect.arrayContaining(["update-edited", "update-backdated"]));
  });
  it("finds the six renames", () => {
    expect(h.kindCount("title-changed")).toBe(6);
  });
});

describeCorpus("corpus: statuspage-summary-github-2025", () => {
  const h = importFolder("statuspage-summary-github-2025");
  itImportsCleanlyAndIdempotently(h, 300);
  it("finds the rewritten investigating update of 71tl7pkqysgw and its moved start", () => {
    const v = h.versionAt("71tl7pkqysgw", "20250516T205357Z");
    expect(v?.kinds).toEqual(expect.arrayContaining(["update-edited", "timing-changed"]));
    const start = v?.changes.find((c) => c.field === "startedAt");
    expect(start).toMatchObject({ before: "2025-05-16T13:46:13.653Z", after: "2025-05-16T20:36:07.000Z" });
  });
  it("finds the corrected maintenance dates and weekday as edits of posted updates", () => {
    expect(h.kindCount("update-edited")).toBe(3);
    const rows = h.state.versions.filter((v) => v.observedAt === "2025-04-02T18:53:51.000Z" && v.kinds.includes("update-edited"));
    const edits = rows.flatMap((r) => r.changes as unknown as Array<{ before: { body: string } | null; after: { body: string } | null }>);
    expect(edits.some((c) => c.before?.body.includes("March 2 to") && c.after?.body.includes("April 2 to"))).toBe(true);
  });
  it("finds the rename to 'Incident with multiple GitHub services' and the minor to major escalations", () => {
    const renamed = changesAt(h.state, "2025-06-17T19:59:09.000Z", "title-changed").filter((c) => c.includes("Incident with multiple GitHub services"));
    expect(renamed).toHaveLength(1);
    expect(h.versionAt("lrby2hyk80dh", "20250423T074212Z")?.kinds).toContain("impact-escalated");
    expect(h.kindCount("impact-escalated")).toBe(8);
    expect(h.kindCount("impact-downgraded")).toBe(0);
  });
});

describeCorpus("corpus: statuspage-summary-trello-nonutc", () => {
  const h = importFolder("statuspage-summary-trello-nonutc");
  itImportsCleanlyAndIdempotently(h, 300);
  it("lets no empty file change anything: every version comes from a good capture, and A, empty, A adds nothing", async () => {
    const db = h.state.db;
    const fromBad = await queryRow<{ n: number }>(db, "SELECT count(*) AS n FROM incident_versions v JOIN captures c ON c.id = v.capture_id WHERE c.outcome != 'ok'");
    expect(fromBad?.n).toBe(0);
    const captures = await queryRows<{ outcome: string; hash: string; versions: number }>(db, "SELECT outcome, hash, version_count AS versions FROM captures ORDER BY observed_at, id");
    let checked = 0;
    for (let i = 1; i + 1 < captures.length; i += 1) {
      const [a, gap, b] = [captures[i - 1], captures[i], captures[i + 1]];
      if (a?.outcome === "ok" && gap?.outcome === "failed" && b?.outcome === "ok" && a.hash === b.hash) {
        expect(b.versions).toBe(0);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(5);
    expect(h.kindCount("incident-left-feed")).toBe(48);
  });
  it("finds the incident that vanished and reappeared", () => {
    expect(h.versionAt("4vtlhqx1fnsy", "20240409T175029Z")?.kinds).toContain("incident-reappeared");
  });
  it("stores New York times in UTC", async () => {
    const rows = await queryRows<{ s: string }>(h.state.db, "SELECT started_at AS s FROM incidents WHERE started_at IS NOT NULL");
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.s.endsWith("Z"))).toBe(true);
  });
});

describeCorpus("corpus: statuspage-incident-github-single", () => {
  const h = importFolder("statuspage-incident-github-single");
  itImportsCleanlyAndIdempotently(h, 300);
  it("keeps one version per incident: single-incident snapshots never make others leave", () => {
    expect(h.kindCount("incident-new")).toBe(300);
    expect(h.kindCount("incident-left-feed") + h.kindCount("incident-deleted")).toBe(0);
  });
});

describeCorpus("corpus: gcp-incidents", () => {
  const h = importFolder("gcp-incidents");
  itImportsCleanlyAndIdempotently(h, 102);
  it("finds begin and end revised after resolution", () => {
    const v = h.versionAt("41E5S3mkTGDfkZuJZH5k", "20260305T011055Z");
    expect(v?.kinds).toContain("timing-changed");
    expect(v?.changes.find((c) => c.field === "resolvedAt")).toMatchObject({ before: "2026-02-27T14:45:00.000Z", after: "2026-02-27T14:35:00.000Z" });
    expect(v?.changes.find((c) => c.field === "startedAt")).toMatchObject({ before: "2026-02-27T12:36:00.000Z", after: "2026-02-27T12:37:00.000Z" });
    expect(h.versionAt("T8gmtofFSTGT5tbhyciF", "20260720T200134Z")?.kinds).toContain("timing-changed");
    expect(h.versionAt("5fGQt4VbkDnr3Yp8PXPr", "20260623T021021Z")?.kinds).toContain("timing-changed");
  });
  it("finds posted updates edited and the description rewritten", () => {
    const v = h.versionAt("3BvH3LVGcupoYqV6F4Nw", "20260716T070801Z");
    expect(v?.kinds).toEqual(expect.arrayContaining(["update-edited", "title-changed"]));
    expect(v?.changes.filter((c) => c.field === "update" && c.kind === "changed")).toHaveLength(3);
  });
  it("lets incidents age out of the year-long window without calling them deleted", () => {
    expect(h.kindCount("incident-left-feed")).toBeGreaterThan(60);
    expect(h.kindCount("incident-deleted")).toBe(0);
  });
});

describeCorpus("corpus: slack-current-2020", () => {
  const h = importFolder("slack-current-2020");
  itImportsCleanlyAndIdempotently(h, 300);
  it("treats reordered services as the same set", () => {
    for (const [id, at] of [["915", "20201016T130714Z"], ["915", "20201016T134642Z"], ["915", "20201016T140835Z"], ["915", "20201016T174649Z"], ["920", "20201117T182425Z"], ["922", "20201123T133235Z"], ["931", "20210104T195459Z"]] as const) {
      expect(h.versionAt(id, at)?.kinds ?? []).not.toContain("components-changed");
    }
  });
  it("finds note texts edited after posting and the escalation to outage", () => {
    const edited = changesAt(h.state, "2020-11-02T21:17:07.000Z", "update-edited").filter((c) => c.includes("The majority of affected users"));
    expect(edited).toHaveLength(1);
    expect(h.kindCount("update-edited")).toBeGreaterThanOrEqual(15);
    expect(h.versionAt("931", "20210104T165143Z")?.kinds).toContain("impact-escalated");
  });
  it("finds incident 965 vanishing and reappearing", () => {
    expect(h.versions("965").some((v) => v.kinds.includes("incident-reappeared"))).toBe(true);
  });
});

describeCorpus("corpus: aws-data-json-2021-12", () => {
  const h = importFolder("aws-data-json-2021-12");
  itImportsCleanlyAndIdempotently(h, 48);
  it("finds the replaced Support Center update and the EventBridge typo fix as edits, the appended post-event summary as an extension", () => {
    expect(h.versionAt("1638896490-supportcenter", "20211207T220838Z")?.kinds).toContain("update-edited");
    expect(h.versionAt("1638917670-events-us-east-1", "20211208T025208Z")?.kinds).toEqual(["update-edited"]);
    // Days later AWS added a post-event summary under its last update, keeping every word of it:
    // nothing was taken back, so it is no quiet edit.
    const console = h.versionAt("1638894176-management-console", "20211210T224742Z");
    expect(console?.kinds).toEqual(["update-extended"]);
    const edit = console?.changes.find((c) => c.field === "update" && c.kind === "changed") as { before: { body: string }; after: { body: string } } | undefined;
    expect(edit?.after.body.startsWith(edit.before.body.trim())).toBe(true);
    expect(edit?.after.body.slice(edit.before.body.trim().length)).toContain("We'd like to share more information");
  });
  it("reads the [RESOLVED] prefix as a resolution, never as a rename", () => {
    expect(h.kindCount("incident-resolved")).toBeGreaterThan(10);
    expect(h.kindCount("title-changed")).toBe(0);
  });
});

describeCorpus("corpus: atom-github-history", () => {
  const h = importFolder("atom-github-history");
  itImportsCleanlyAndIdempotently(h, 300);
  it("finds the 'resolved' text replaced by a root-cause summary", () => {
    const v = h.versionAt("7r0jg1plygfm", "20250503T042906Z");
    expect(v?.kinds).toContain("update-edited");
    const edit = v?.changes.find((c) => c.field === "update" && c.kind === "changed") as { before: { body: string }; after: { body: string } } | undefined;
    expect(edit?.before.body).toBe("This incident has been resolved.");
    expect(edit?.after.body.length).toBeGreaterThan(200);
  });
  it("finds the impact window corrected, the pointer to a combined incident, and the rename", () => {
    expect(h.versionAt("zltys99f2lgq", "20250708T043624Z")?.kinds).toContain("update-edited");
    expect(h.versionAt("pz7g535gbs6p", "20260731T065031Z")?.kinds).toContain("update-edited");
    const renamed = h.versionAt("n07yy1bk6kc4", "20260305T051515Z");
    expect(renamed?.changes.find((c) => c.field === "title")).toMatchObject({ before: "Incident with Copilot and Actions", after: "Incident with all GitHub services" });
  });
  it("tells entries rolling off the feed from an entry the vendor removed", () => {
    expect(h.kindCount("incident-left-feed")).toBeGreaterThan(300);
    expect(h.versions("9lsvw3fcpbxm").at(-1)?.kinds).toEqual(["incident-deleted"]);
    expect(h.kindCount("incident-reappeared")).toBe(2);
  });
});
