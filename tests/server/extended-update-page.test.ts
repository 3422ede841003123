import { beforeAll, describe, expect, it } from "vitest";
import type { RedlineDb } from "@/db/client";
import { ensureVendor } from "@/db/settings/vendors";
import type { Change } from "@/lib/change";
import { paths } from "@/lib/incident-key";
import { renderChangeMarkdown } from "@/lib/render/change-markdown";
import { ingestSnapshot } from "@/scrapers/ingest/ingest-snapshot";
import { renderArchivePage } from "@/server/archive-pages";
import { freshDatabase } from "@/tests/support/database";
import { makeIncident, makeUpdate } from "@/tests/support/incidents";
import { makeTestPlatform, snapshotBody } from "@/tests/support/test-platform";

/** An update that AWS-style gains a post-event summary under its last words, days later: every word of it kept. */
const POSTED = "This incident has been resolved. Error rates are back to normal.";
const SUMMARY = "We'd like to share more information about the event (addedmarker). Between 12:02 and 14:02 UTC some requests failed; the cause was a configuration change, now rolled back region by region.";
const NOW = new Date("2026-03-05T00:00:00.000Z");
let db: RedlineDb;

beforeAll(async () => {
  db = await freshDatabase();
  const platform = makeTestPlatform({ kind: "recent", limit: null });
  const vendor = await ensureVendor(db, { slug: "grower", name: "Grower", platform: platform.name });
  const withText = (body: string) => makeIncident({ vendor: "grower", id: "g1", status: "resolved", resolvedAt: "2026-03-01T11:00:00.000Z", updates: [makeUpdate({ body, status: "resolved" })] });
  for (const [observedAt, body] of [["2026-03-01T11:05:00.000Z", POSTED], ["2026-03-03T09:00:00.000Z", `${POSTED}\n\n${SUMMARY}`]] as const) {
    await ingestSnapshot(db, { vendor, platform, source: "feed", observedAt, body: snapshotBody([withText(body)]) });
  }
});

describe("a change page of text added to an update", () => {
  it("heads it 'Update extended', says the old text is kept whole, and marks the added text as inserted rather than calling it rewritten", async () => {
    const html = (await renderArchivePage(db, paths.version("grower", "g1", 2), ["/_next/static/site.css"], NOW)) ?? "";
    expect(html).toContain("<h3>Update extended");
    expect(html).toContain("A paragraph was added at the end; the text posted before is kept whole.");
    expect(html).not.toContain("Rewritten");
    expect(html).not.toContain("Update edited");
    expect(html).toMatch(/<ins>[^<]*addedmarker/);
  });

  it("says the same in Markdown", () => {
    const change: Change = {
      field: "update",
      kind: "changed",
      updateId: "u1",
      before: makeUpdate({ body: POSTED, status: "resolved" }),
      after: makeUpdate({ body: `${POSTED}\n\n${SUMMARY}`, status: "resolved" }),
    };
    const markdown = renderChangeMarkdown(change).join("\n");
    expect(markdown).toContain("**Update extended**");
    expect(markdown).toContain("A paragraph was added at the end; the text posted before is kept whole.");
    expect(markdown).not.toContain("Rewritten");
  });
});
