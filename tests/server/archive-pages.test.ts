import { beforeAll, describe, expect, it } from "vitest";
import type { RedlineDb } from "@/db/client";
import { paths } from "@/lib/incident-key";
import { renderArchivePage } from "@/server/archive-pages";
import { ensureVendor } from "@/db/settings/vendors";
import { ingestSnapshot } from "@/scrapers/ingest/ingest-snapshot";
import { archiveAcmeLifecycle } from "@/tests/support/acme-archive";
import { freshDatabase } from "@/tests/support/database";
import type { Incident } from "@/lib/incident";
import { makeIncident } from "@/tests/support/incidents";
import { makeTestPlatform, snapshotBody } from "@/tests/support/test-platform";
import { component, grid, recordCaptures } from "@/tests/support/status-captures";

/** The lifecycle's incident (tests/fixtures/scenarios/acme-lifecycle.ts). */
const INCIDENT = paths.incident("acme", "k3x9");
const NOW = new Date("2026-05-01T00:00:00.000Z");
let db: RedlineDb;

beforeAll(async () => {
  db = await freshDatabase();
  await archiveAcmeLifecycle(db);
  const platform = makeTestPlatform({ kind: "active" });
  const quiet = await ensureVendor(db, { slug: "quiet", name: "Quiet Co", platform: platform.name });
  const open = makeIncident({ vendor: "quiet", id: "q1", title: "Still investigating", startedAt: "2026-04-09T00:00:00.000Z" });
  await ingestSnapshot(db, { vendor: quiet, platform, source: "feed", observedAt: "2026-04-09T02:00:00.000Z", body: snapshotBody([open]) });
  const plain = await ensureVendor(db, { slug: "plain", name: "Plain Feed", platform: platform.name });
  const unstated = makeIncident({ vendor: "plain", id: "p1", title: "Service impact: Increased packet loss", status: null, startedAt: "2026-04-09T00:00:00.000Z" });
  await ingestSnapshot(db, { vendor: plain, platform, source: "feed", observedAt: "2026-04-30T23:58:00.000Z", body: snapshotBody([unstated]) });
  await archiveEscalations();
  const gridded = await ensureVendor(db, { slug: "gridded", name: "Gridded", platform: "statuspage" });
  await recordCaptures(db, gridded, [
    grid("2026-04-20T10:00:00.000Z", [component("api", "operational"), component("web", "operational")]),
    grid("2026-04-29T10:00:00.000Z", [component("api", "degraded_performance"), component("web", "operational")]),
    grid("2026-04-30T10:00:00.000Z", [component("api", "operational"), component("web", "operational")]),
  ]);
});

/** Incidents raised from minor to critical at 17:37: one then gone from a feed of unresolved incidents, one deleted, one still listed by a feed polled weeks ago, one by a feed polled now. */
async function archiveEscalations() {
  const escalating = (vendor: string, id: string, startedAt: string) => {
    const minor = makeIncident({ vendor, id, title: `Escalating ${id}`, startedAt, impact: "minor" });
    return { minor, critical: { ...minor, impact: "critical" as const } };
  };
  const ingest = async (slug: string, platform: ReturnType<typeof makeTestPlatform>, snapshots: [string, Incident[]][]) => {
    const vendor = await ensureVendor(db, { slug, name: slug, platform: platform.name });
    for (const [observedAt, incidents] of snapshots) await ingestSnapshot(db, { vendor, platform, source: "feed", observedAt, body: snapshotBody(incidents) });
  };
  const left = escalating("left", "l1", "2026-04-10T13:00:00.000Z");
  await ingest("left", makeTestPlatform({ kind: "active" }), [
    ["2026-04-10T13:37:00.000Z", [left.minor]],
    ["2026-04-10T17:37:00.000Z", [left.critical]],
    ["2026-04-10T21:37:00.000Z", []],
  ]);
  const gone = escalating("gone", "d1", "2026-04-10T13:00:00.000Z");
  const older = [1, 2].map((n) => makeIncident({ vendor: "gone", id: `o${n}`, startedAt: `2026-04-0${n}T10:00:00.000Z`, resolvedAt: `2026-04-0${n}T11:00:00.000Z`, status: "resolved" }));
  await ingest("gone", makeTestPlatform({ kind: "recent", limit: null }, 1, "test-recent"), [
    ["2026-04-10T13:37:00.000Z", [...older, gone.minor]],
    ["2026-04-10T17:37:00.000Z", [...older, gone.critical]],
    ["2026-04-10T19:37:00.000Z", older],
  ]);
  const stale = escalating("stale", "t1", "2026-04-10T13:00:00.000Z");
  await ingest("stale", makeTestPlatform({ kind: "active" }), [
    ["2026-04-10T13:37:00.000Z", [stale.minor]],
    ["2026-04-10T17:37:00.000Z", [stale.critical]],
    ["2026-04-10T20:37:00.000Z", [stale.critical]],
  ]);
  const still = escalating("still", "s1", "2026-04-30T13:00:00.000Z");
  await ingest("still", makeTestPlatform({ kind: "active" }), [
    ["2026-04-30T13:37:00.000Z", [still.minor]],
    ["2026-04-30T17:37:00.000Z", [still.critical]],
    ["2026-04-30T23:58:00.000Z", [still.critical]],
  ]);
}

const render = (path: string) => renderArchivePage(db, path, ["/_next/static/site.css"], NOW);

describe("renderArchivePage", () => {
  it("writes an incident page as a whole document: head, the site's chrome, the story, no script", async () => {
    const html = (await render(INCIDENT)) ?? "";
    expect(html.startsWith("<!DOCTYPE html><html lang=\"en\"><head>")).toBe(true);
    expect(html).toMatch(/<title>Acme Cloud: [^<]+ · Redline<\/title>/);
    expect(html).toContain('<link rel="stylesheet" href="/_next/static/site.css"/>');
    expect(html).toContain(`<link rel="alternate" type="application/atom+xml" href="${INCIDENT}/feed.atom"`);
    expect(html).toContain('<header class="site-header">');
    expect(html).toContain('<footer class="site-footer">');
    expect(html).toContain('<h2 id="history-heading">History of this incident</h2>');
    expect(html.indexOf("History of this incident")).toBeLessThan(html.indexOf("Update timeline"));
    expect(html).not.toContain("<script");
  });

  it("writes a change page with its neighbours' links and what changed", async () => {
    const html = (await render(`${INCIDENT}/versions/2`)) ?? "";
    expect(html).toContain('<h2 id="changed-heading">What changed</h2>');
    expect(html).toContain(`href="${INCIDENT}/versions/1" rel="prev"`);
    expect(html).toContain(`href="${INCIDENT}/versions/3" rel="next"`);
    expect(html).not.toContain("<script");
  });

  it("says an incident its feed still lists is open only as of the last capture, when that is months old", async () => {
    const html = (await render(paths.incident("quiet", "q1"))) ?? "";
    expect(html).toContain("not as of the last capture, ");
    expect(html).toContain("(open for 2 h by then)");
    expect(html).not.toContain("not yet");
  });

  it("says a source that states no status stated no resolution either, rather than calling its incident open", async () => {
    const html = (await render(paths.incident("plain", "p1"))) ?? "";
    expect(html).toMatch(/<dt>Resolved<\/dt><dd><span class="muted">not stated by the vendor<\/span>/);
    expect(html).not.toContain("not yet");
    expect(html).not.toContain("open for");
  });

  it("ends an escalated impact when its incident left the feed of unresolved incidents, not now", async () => {
    const html = (await render(paths.incident("left", "l1"))) ?? "";
    expect(html).toContain("minor → critical at 17:37 UTC, for 4 h<");
  });

  it("ends an escalated impact when its incident was deleted, not now", async () => {
    const html = (await render(paths.incident("gone", "d1"))) ?? "";
    expect(html).toContain("minor → critical at 17:37 UTC, for 2 h<");
  });

  it("runs the impact of an incident still listed by a feed last read weeks ago only until that read", async () => {
    const html = (await render(paths.incident("stale", "t1"))) ?? "";
    expect(html).toContain("minor → critical at 17:37 UTC, for 3 h<");
  });

  it("runs the impact of an incident still listed and unresolved until now", async () => {
    const html = (await render(paths.incident("still", "s1"))) ?? "";
    expect(html).toContain("minor → critical at 17:37 UTC, for 6 h 23 min<");
  });

  it("writes a component page as a whole document, with its state over the period the query asks for", async () => {
    const html = (await render(paths.component("gridded", "api"))) ?? "";
    expect(html.startsWith("<!DOCTYPE html><html lang=\"en\"><head>")).toBe(true);
    expect(html).toContain("<title>Gridded: API · Redline</title>");
    expect(html).toContain('<header class="site-header">');
    expect(html).toMatch(/<h1>API<\/h1>/);
    expect(html).toContain("Degraded performance");
    expect(html).toContain("Time in each state, the last 90 days");
    expect(html).not.toContain("<script");
    const year = (await renderArchivePage(db, paths.component("gridded", "api"), ["/_next/static/site.css"], NOW, "?days=365")) ?? "";
    expect(year).toContain("Time in each state, the last 365 days");
    expect(year).not.toContain("Time in each state, the last 90 days");
  });

  it.each([
    ["an unknown component", paths.component("gridded", "nope"), ""],
    ["a component of an unknown vendor", paths.component("nope", "api"), ""],
    ["a period it does not offer", paths.component("gridded", "api"), "?days=7"],
    ["a parameter it does not take", paths.component("gridded", "api"), "?page=2"],
  ])("leaves %s to Next", async (_what, path, search) => {
    expect(await renderArchivePage(db, path, ["/_next/static/site.css"], NOW, search)).toBeNull();
  });

  it("reads percent-encoded segments as the router does", async () => {
    expect(await render(INCIDENT.replace("/acme/", "/%61cme/"))).toBe(await render(INCIDENT));
  });

  it.each([
    ["a vendor page", "/vendors/acme"],
    ["a comparison", `${INCIDENT}/compare`],
    ["an export", `${INCIDENT}/export.md`],
    ["an unknown vendor", INCIDENT.replace("/acme/", "/nope/")],
    ["an unknown incident", "/vendors/acme/incidents/nope00000000"],
    ["version 0", `${INCIDENT}/versions/0`],
    ["a version past the last", `${INCIDENT}/versions/99`],
    ["a version that is not a number", `${INCIDENT}/versions/latest`],
    ["a malformed escape", "/vendors/acme/incidents/%E0%A4%A"],
    ["a vendor's components", "/vendors/acme/components"],
  ])("leaves %s to Next", async (_what, path) => {
    expect(await render(path)).toBeNull();
  });
});
