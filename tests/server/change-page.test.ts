import { beforeAll, describe, expect, it } from "vitest";
import type { RedlineDb } from "@/db/client";
import { ensureVendor } from "@/db/settings/vendors";
import { paths } from "@/lib/incident-key";
import { ingestSnapshot } from "@/scrapers/ingest/ingest-snapshot";
import { gcpPlatform } from "@/scrapers/platforms/gcp";
import { renderArchivePage } from "@/server/archive-pages";
import { freshDatabase } from "@/tests/support/database";

/**
 * A Google Cloud incident whose incident report is posted as its last update, as
 * status.cloud.google.com does (and the simulator's Google Cloud vendor): updates newest first.
 */
const REPORT = "# Incident Report\n\n## Summary\n\nOn 1 April Cloud Widgets returned errors for 2 hours (reportmarker).\n\n## Root cause\n\nA bad configuration push.";
const EXTRA = "\n\n## Remediation\n\nWe added a canary stage for configuration pushes (addedmarker).";

function gcpIncident(stage: "open" | "resolved" | "report" | "report-edited") {
  const updates = [{ created: "2026-04-01T10:05:00+00:00", when: "2026-04-01T10:05:00+00:00", text: "We are investigating errors in Cloud Widgets.", status: "SERVICE_INFORMATION" }];
  if (stage !== "open") updates.unshift({ created: "2026-04-01T12:00:00+00:00", when: "2026-04-01T12:00:00+00:00", text: "The issue with Cloud Widgets has been resolved.", status: "AVAILABLE" });
  if (stage === "report" || stage === "report-edited") {
    updates.unshift({ created: "2026-04-05T09:00:00+00:00", when: "2026-04-05T09:00:00+00:00", text: stage === "report" ? REPORT : REPORT + EXTRA, status: "AVAILABLE" });
  }
  return {
    id: "WidgetsDown1",
    begin: "2026-04-01T10:00:00+00:00",
    ...(stage === "open" ? {} : { end: "2026-04-01T12:00:00+00:00" }),
    external_desc: "Cloud Widgets returned errors",
    severity: "medium",
    updates,
    most_recent_update: updates[0],
    affected_products: [{ id: "widgets", title: "Cloud Widgets" }],
    uri: "incidents/WidgetsDown1",
  };
}

const CAPTURES: Array<[string, Parameters<typeof gcpIncident>[0]]> = [
  ["2026-04-01T10:10:00.000Z", "open"],
  ["2026-04-01T12:10:00.000Z", "resolved"],
  ["2026-04-05T09:10:00.000Z", "report"],
  ["2026-04-06T09:10:00.000Z", "report-edited"],
];

const INCIDENT = paths.incident("gcloud", "WidgetsDown1");
const NOW = new Date("2026-04-07T00:00:00.000Z");
let db: RedlineDb;

beforeAll(async () => {
  db = await freshDatabase();
  const vendor = await ensureVendor(db, { slug: "gcloud", name: "Google Cloud", platform: "gcp" });
  for (const [observedAt, stage] of CAPTURES) {
    await ingestSnapshot(db, { vendor, platform: gcpPlatform, source: "feed", observedAt, body: Buffer.from(JSON.stringify([gcpIncident(stage)])) });
  }
});

const render = async (path: string) => (await renderArchivePage(db, path, ["/_next/static/site.css"], NOW)) ?? "";
const count = (html: string, text: string) => html.split(text).length - 1;

describe("the change page", () => {
  it("puts the machine-written summary above the diff it says it is written from", async () => {
    const html = await render(paths.version("gcloud", "WidgetsDown1", 2));
    const notice = html.indexOf("Machine-written from the diff below");
    expect(notice).toBeGreaterThan(html.indexOf('<h2 id="summary-heading">'));
    expect(notice).toBeLessThan(html.indexOf('<h2 id="changed-heading">'));
    expect(html.indexOf('<h2 id="changed-heading">')).toBeLessThan(html.indexOf('class="what-changed"'));
  });

  it("shows a postmortem Google Cloud posted as an update once, as the postmortem, and says it was posted as an update too", async () => {
    const html = await render(paths.version("gcloud", "WidgetsDown1", 3));
    expect(count(html, "reportmarker")).toBe(1);
    expect(html).toMatch(/<h3>Postmortem<\/h3><p class="muted small postmortem-update">Posted as an update too \(Available, 2026-04-05 09:00:00 UTC\): the same text, shown once, here\.<\/p>/);
    expect(html).not.toContain("<h3>Update posted");
    // Nor does the summary quote the report as a new update beside its publication.
    const summary = html.slice(html.indexOf('<h2 id="summary-heading">'), html.indexOf('<h2 id="changed-heading">'));
    expect(summary).toContain("<p>Postmortem published 4 days after resolution. Google Cloud reported");
    expect(summary).not.toContain("New update");
  });

  it("shows an edit of that postmortem once, its inserted lines marked as inserted", async () => {
    const html = await render(paths.version("gcloud", "WidgetsDown1", 4));
    expect(count(html, "Word changes")).toBe(1);
    expect(html).not.toContain("<h3>Update edited");
    expect(html).toMatch(/<p class="diff-line diff-changed diff-added"><ins>[^<]*addedmarker/);
    expect(html).not.toContain("diff-removed");
  });
});

describe("the incident page of a postmortem posted as an update", () => {
  it("shows the report once, under Postmortem, the timeline's entry pointing to it", async () => {
    const html = await render(INCIDENT);
    expect(count(html, "addedmarker")).toBe(1);
    expect(html.indexOf("addedmarker")).toBeGreaterThan(html.indexOf('<h2 id="postmortem-heading">'));
    expect(html).toContain('shown once, under <a href="#postmortem-heading">Postmortem</a>');
  });

  it("says Google Cloud's status in its dashboard's words", async () => {
    const html = await render(paths.version("gcloud", "WidgetsDown1", 1));
    expect(html).toContain("Service information");
    expect(html).not.toMatch(/[^e] Information\b/);
  });
});
