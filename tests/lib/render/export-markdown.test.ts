import fs from "node:fs";
import MarkdownIt from "markdown-it";
import { describe, expect, it } from "vitest";
import { loadVendorExport } from "@/db/queries/incident-history";
import { ensureVendor } from "@/db/settings/vendors";
import type { Change } from "@/lib/change";
import type { ExportDocument, ExportVersion } from "@/lib/export-document";
import { statusLabel } from "@/lib/labels";
import { renderExportMarkdown } from "@/lib/render/export-markdown";
import { importSnapshots } from "@/scrapers/ingest/import-snapshots";
import { getPlatform } from "@/scrapers/platforms";
import { corpusSnapshots, describeCorpus, observedAtOf } from "@/tests/support/corpus";
import { freshDatabase } from "@/tests/support/database";
import { makeIncident, makeUpdate } from "@/tests/support/incidents";

const at = "2026-03-01T10:02:00.000Z";

function exportOf(changes: Change[], incident = makeIncident(), presence: "listed" | "left-feed" = "listed"): string {
  const version: ExportVersion = { seq: 2, observedAt: "2026-03-01T11:00:00.000Z", hash: "h", kinds: ["update-edited"], changes, summary: "A summary." };
  const doc: ExportDocument = {
    vendor: { slug: "acme", name: "Acme" },
    incidents: [{ ...incident, presence, firstSeenAt: at, lastSeenAt: at, versions: [version] }],
  };
  return renderExportMarkdown(doc);
}

const edit = (before: string, after: string, status = "investigating"): Change => ({
  field: "update", kind: "changed", updateId: "u1", before: makeUpdate({ body: before, status }), after: makeUpdate({ body: after, status }),
});

/** The document with its fenced blocks (vendor text as written) taken out. */
function outsideFences(md: string): string {
  return md.replace(/^(`{3,})(text|diff)\n[\s\S]*?\n\1$/gm, "");
}

describe("the Markdown export as a document for a person", () => {
  it("writes an edited update as Before and After with its changed words quoted in context, never as [-…-]{+…+}", () => {
    const md = exportOf([edit("We are investigating errors on the REST API in eu-west-1.", "We are investigating errors for a small number of customers.")]);
    expect(md).toContain("**Update edited** (Investigating, 2026-03-01 10:02:00 UTC)");
    expect(md).toMatch(/Before:\n\n```text\nWe are investigating errors on the REST API in eu-west-1\.\n```\n\nAfter:\n\n```text\nWe are investigating errors for a small number of customers\.\n```/);
    expect(md).toContain("1. “are investigating errors on the REST API in eu-west-1.” became “are investigating errors for a small number of customers.”");
    expect(md).not.toMatch(/\[-|-\]|\{\+|\+\}/);
    expect(md).not.toContain("Word changes");
  });

  it("writes a long edited postmortem as its changed passages with context, then the whole new text once", () => {
    const body = (word: string) => Array.from({ length: 40 }, (_, i) => (i === 20 ? `Line ${i} ${word}.` : `Line ${i} stays.`)).join("\n");
    const md = exportOf([{ field: "postmortem", kind: "changed", before: { body: body("old"), publishedAt: at }, after: { body: body("new"), publishedAt: at } }]);
    const diff = /```diff\n([\s\S]*?)\n```/.exec(md)?.[1] ?? "";
    expect(diff.split("\n")).toEqual(["… 18 unchanged lines …", "  Line 18 stays.", "  Line 19 stays.", "- Line 20 old.", "+ Line 20 new.", "  Line 21 stays.", "  Line 22 stays.", "… 17 unchanged lines …"]);
    expect(md).toContain('The changed passages (35 unchanged lines left out; "-" before, "+" after):');
    expect(md.split("Line 2 stays.").length - 1).toBe(1);
    expect(md).not.toContain("Line 20 old.\nLine 21");
    expect(md).not.toMatch(/\[-|\{\+/);
  });

  it("says statuses, impacts, kinds and feed presence in lib/labels' words, never as stored codes", () => {
    const incident = makeIncident({ status: "service_disruption", impact: "major", updates: [makeUpdate({ status: "service_information" })] });
    const md = exportOf(
      [
        { field: "status", kind: "changed", before: "service_information", after: "service_disruption" },
        { field: "impact", kind: "changed", before: "minor", after: "major" },
        { field: "presence", kind: "changed", before: "listed", after: "left-feed" },
        { field: "update", kind: "changed", updateId: "u1", before: makeUpdate({ status: "in_progress" }), after: makeUpdate({ status: "service_information" }) },
      ],
      incident,
      "left-feed",
    );
    expect(md).toContain("| Status | Service disruption |");
    expect(md).toContain("| Feed presence | No longer in the feed |");
    expect(md).toContain(`- Status: ${statusLabel("service_information")} → ${statusLabel("service_disruption")}`);
    expect(md).toContain("- Impact: Minor → Major");
    expect(md).toContain("- Feed presence: Listed in the feed → No longer in the feed");
    expect(md).toContain("Status and time: In progress, 2026-03-01 10:02:00 UTC → Service information, 2026-03-01 10:02:00 UTC");
    for (const code of ["service_information", "service_disruption", "in_progress", "left-feed", "| major |", "| incident |"]) expect(md).not.toContain(code);
  });

  it("keeps vendor markup inert where a changed word is quoted outside a fence", () => {
    const kept = "The service was fixed by a restart of the cache nodes in every region";
    const md = exportOf([edit(`${kept} today.`, `${kept} <img src=x onerror="alert(1)"> **today** [here](javascript:alert(2)).`)]);
    const prose = outsideFences(md);
    expect(prose).toContain("What changed in it:");
    expect(prose).toContain("\\<img src=x onerror=\"alert(1)\"\\>");
    expect(prose).not.toMatch(/(^|[^\\])(<img|\*\*restart|\[here\])/m);
  });
});

describe("the Markdown export as CommonMark", () => {
  it("keeps a version's changed values a list of their own after an edited text's quoted words, and its vendor markup text", () => {
    const status: Change = { field: "status", kind: "changed", before: "identified", after: "monitoring" };
    const md = exportOf([
      status,
      edit("We are investigating <b>elevated</b> errors on the REST API in eu-west-1.", "We are investigating <b>elevated</b> errors for a small number of <script>x()</script> customers."),
    ].reverse());
    const html = new MarkdownIt({ html: false }).render(md);
    expect(html).toMatch(/<\/ol>\n<ul>\n<li>Status: Identified → Monitoring<\/li>\n<\/ul>/);
    expect(html).not.toMatch(/<(b|script)>/);
    expect(html).toContain("&lt;script&gt;x()&lt;/script&gt;");
  });
});

describeCorpus("the Markdown export of real archives", () => {
  it("has no word-diff markers and no raw status code outside the vendor's own text", async () => {
    const db = await freshDatabase();
    const codesSeen: string[] = [];
    const sources = [
      { folder: "statuspage-summary-jira", slug: "jira", platform: "statuspage-summary", take: 60 },
      { folder: "gcp-incidents", slug: "google-cloud", platform: "gcp", take: 8 },
    ];
    for (const { folder, slug, platform: name, take } of sources) {
      const platform = getPlatform(name);
      if (!platform) throw new Error(`no platform ${name}`);
      const vendor = await ensureVendor(db, { slug, name: slug, platform: platform.name });
      const files = corpusSnapshots(folder).slice(0, take);
      await importSnapshots(db, vendor, platform, files.map((file) => ({ label: file, observedAt: observedAtOf(file), source: name, read: () => fs.readFileSync(file) })));
      const doc = await loadVendorExport(db, slug);
      if (!doc) throw new Error(`no export of ${slug}`);
      const statuses = new Set(doc.incidents.flatMap((i) => [i.status, ...i.updates.map((u) => u.status)]).filter((s): s is string => s !== null));
      expect(statuses.size).toBeGreaterThan(1);
      const md = renderExportMarkdown(doc);
      expect(md).not.toMatch(/\[-|\{\+/);
      const prose = outsideFences(md);
      // A code, not a word a vendor's text would hold: "service_disruption", "SERVICE_OUTAGE", "in_progress".
      const codes = [...statuses].filter((s) => /_|^[A-Z]+$/.test(s));
      codesSeen.push(...codes);
      for (const code of codes) expect(prose).not.toContain(code);
      for (const status of statuses) expect(prose).toContain(statusLabel(status));
    }
    expect(codesSeen.length).toBeGreaterThan(0);
  });
});
