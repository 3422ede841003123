import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { loadVendorExport } from "@/db/queries/incident-history";
import { ensureVendor } from "@/db/vendors";
import { type ExportDocument, renderExportJson } from "@/lib/export-document";
import { renderExportMarkdown } from "@/lib/render/export-markdown";
import { ingestSnapshot } from "@/scrapers/ingest/ingest-snapshot";
import { ACME_LIFECYCLE } from "@/tests/fixtures/scenarios/acme-lifecycle";
import { freshDatabase } from "@/tests/support/database";
import { makeTestPlatform, snapshotBody } from "@/tests/support/test-platform";

const GOLDEN_DIR = path.join(__dirname, "..", "..", "fixtures", "golden");

/** Compare with the golden file; UPDATE_GOLDEN=1 rewrites it (review the diff by eye). */
function expectGolden(name: string, actual: string): void {
  const file = path.join(GOLDEN_DIR, name);
  if (process.env.UPDATE_GOLDEN === "1") fs.writeFileSync(file, actual);
  expect(actual).toBe(fs.readFileSync(file, "utf8"));
}

describe("exports of a hand-written lifecycle", () => {
  let doc: ExportDocument;
  beforeAll(async () => {
    const db = await freshDatabase();
    const platform = makeTestPlatform({ kind: "recent", limit: 25 });
    const vendor = await ensureVendor(db, { slug: "acme", name: "Acme Cloud", platform: platform.name });
    for (const step of ACME_LIFECYCLE) {
      await ingestSnapshot(db, { vendor, platform, source: "incidents.json", observedAt: step.at, body: snapshotBody(step.incidents) });
    }
    const loaded = await loadVendorExport(db, "acme");
    if (!loaded) throw new Error("vendor missing");
    doc = loaded;
  });

  it("renders the Markdown history exactly as the golden file", () => {
    expectGolden("acme-export.md", renderExportMarkdown(doc));
  });

  it("renders the JSON export exactly as the golden file", () => {
    expectGolden("acme-export.json", renderExportJson(doc));
  });

  it("finds each edit of the lifecycle with the right kind", () => {
    const kinds = (id: string) => doc.incidents.find((i) => i.id === id)?.versions.map((v) => v.kinds);
    expect(kinds("k3x9")).toEqual([
      ["incident-new"],
      ["impact-escalated", "components-changed", "status-changed", "update-posted"],
      ["update-edited"],
      ["incident-resolved", "status-changed", "update-posted"],
      ["impact-downgraded"],
      ["postmortem-published", "status-changed"],
      ["postmortem-edited"],
    ]);
    expect(kinds("m7q2")).toEqual([["incident-new"], ["rescheduled"]]);
    expect(kinds("d404")).toEqual([["incident-new"], ["incident-deleted"]]);
  });

  it("never lets vendor text become Markdown markup", () => {
    const md = renderExportMarkdown(doc);
    const outsideFences = md.replace(/^(`{3,})text\n[\s\S]*?\n\1$/gm, "");
    expect(outsideFences).not.toMatch(/(^|[^\\])(!\[|<script|<b>)/m);
    expect(md).toContain("![tracker](https://evil.test/pixel.png)");
    expect(md).toContain("Database upgrade \\| \"primary\" \\<cluster\\>");
    expect(md).toContain("````text");
  });
});
