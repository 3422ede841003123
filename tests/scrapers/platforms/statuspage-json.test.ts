import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { incidentSchema, type Incident } from "@/lib/incident";
import { SnapshotError, type ParseContext, type Platform } from "@/scrapers/platforms/platform";
import { statuspagePlatforms } from "@/scrapers/platforms/statuspage";
import { statuspageIncidentPlatform } from "@/scrapers/platforms/statuspage-incident";
import { statuspageIncidentsPlatform } from "@/scrapers/platforms/statuspage-incidents";
import { statuspageSummaryPlatform } from "@/scrapers/platforms/statuspage-summary";
import { corpusPath, corpusSnapshots, describeCorpus, observedAtOf } from "@/tests/support/corpus";
import { snapshotRejection, parseIncidents } from "@/tests/support/parsing";

const FIXTURES = path.join(__dirname, "..", "..", "fixtures", "statuspage");
const ctx: ParseContext = { vendor: "example", source: "fixture.json", observedAt: "2024-07-01T12:00:00.000Z" };

function fixture(name: string): Uint8Array {
  return fs.readFileSync(path.join(FIXTURES, name));
}

function json(value: unknown): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(value));
}

function parseError(platform: Platform, body: Uint8Array): Promise<SnapshotError> {
  return snapshotRejection(parseIncidents(platform, body, ctx));
}

function only(incidents: Incident[], id: string): Incident {
  const found = incidents.find((i) => i.id === id);
  if (!found) throw new Error(`no incident ${id} among ${incidents.map((i) => i.id).join(", ")}`);
  return found;
}

describe("statuspage JSON platforms", () => {
  it("registers the Statuspage platforms with the presence each endpoint implies", () => {
    expect(statuspagePlatforms.map((p) => [p.name, p.profile.presence])).toEqual([
      ["statuspage-summary", { kind: "active" }],
      ["statuspage-incidents", { kind: "recent", limit: 50 }],
      ["statuspage-components", { kind: "single" }],
      ["statuspage-incident", { kind: "single" }],
      ["statuspage-atom", { kind: "recent", limit: 25 }],
      ["statuspage-rss", { kind: "recent", limit: 25 }],
      ["statuspage-atom-fallback", { kind: "recent", limit: 25 }],
    ]);
  });

  it("keeps a postmortem with its publication time converted from +01:00 to UTC", async () => {
    const [incident] = await parseIncidents(statuspageIncidentPlatform, fixture("incident-postmortem.json"), ctx);
    expect(incident?.status).toBe("postmortem");
    expect(incident?.postmortem?.body).toMatch(/^## Root cause\nA configuration push disabled connection pooling/);
    expect(incident?.postmortem?.publishedAt).toBe("2024-03-05T16:30:00.000Z");
    expect(incident?.resolvedAt).toBe("2024-03-04T10:15:30.500Z");
    expect(incident?.startedAt).toBe("2024-03-04T08:58:12.000Z");
  });

  it("builds the incident url from the page url without doubling its trailing slash", async () => {
    const [incident] = await parseIncidents(statuspageIncidentPlatform, fixture("incident-postmortem.json"), ctx);
    expect(incident?.url).toBe("https://status.example-cloud.test/incidents/pm7example01");
    expect(incident?.components).toEqual([
      { id: "cmpapi00001", name: "REST API" },
      { id: "cmpweb00001", name: "Dashboard" },
    ]);
  });

  it("keeps update bodies exactly as the vendor sent them, script tags included, for renderers to escape", async () => {
    const [incident] = await parseIncidents(statuspageIncidentPlatform, fixture("incident-postmortem.json"), ctx);
    const identified = incident?.updates.find((u) => u.id === "upd00000002");
    expect(identified?.body).toContain("<script>alert('owned')</script>");
    expect(identified?.displayAt).toBe("2024-03-04T09:20:00.000Z");
  });

  it("reads a summary's maintenance window and an incident given in -07:00 as UTC", async () => {
    const incidents = await parseIncidents(statuspageSummaryPlatform, fixture("summary-maintenance-offset.json"), ctx);
    const maintenance = only(incidents, "mnt0pacific1");
    expect(maintenance.kind).toBe("maintenance");
    expect(maintenance.impact).toBe("maintenance");
    expect(maintenance.scheduledFor).toBe("2024-07-03T06:00:00.000Z");
    expect(maintenance.scheduledUntil).toBe("2024-07-03T08:00:00.000Z");
    const incident = only(incidents, "inc0pacific1");
    expect(incident.kind).toBe("incident");
    expect(incident.startedAt).toBe("2024-07-01T05:10:00.250Z");
    expect(incident.updates.map((u) => u.displayAt)).toEqual(["2024-07-01T06:45:00.000Z", "2024-07-01T05:10:00.300Z"]);
  });

  it("maps an impact outside the Statuspage set to null instead of failing", async () => {
    const incidents = await parseIncidents(statuspageSummaryPlatform, fixture("summary-maintenance-offset.json"), ctx);
    expect(only(incidents, "inc0pacific1").impact).toBeNull();
  });

  it("accepts the scheduled-maintenances.json shape and falls back to the shortlink without a page url", async () => {
    const body = fixture("scheduled-maintenances-no-page-url.json");
    const [maintenance] = await parseIncidents(statuspageIncidentsPlatform, body, ctx);
    expect(maintenance?.kind).toBe("maintenance");
    expect(maintenance?.impact).toBe("none");
    expect(maintenance?.url).toBe("https://stspg.io/mail1");
    expect(maintenance?.startedAt).toBe("2024-02-01T12:00:00.000Z");
    expect(maintenance?.components).toEqual([]);
  });

  it("names vendor, source and path when incidents is not an array", async () => {
    const error = await parseError(statuspageSummaryPlatform, json({ page: {}, incidents: "none" }));
    expect(error.kind).toBe("schema");
    expect(error.message).toMatch(/^example: snapshot from fixture\.json is invalid at incidents:/);
  });

  it("reads an incident without an id as unreadable, and the others as usual", async () => {
    const read = await statuspageIncidentsPlatform.parse(json({ incidents: [{ name: "No id" }, { id: "ok1", name: "Fine" }] }), ctx);
    expect(read.unread).toEqual([{ id: null, path: "incidents[0]" }]);
    expect(read.warnings.map((w) => w.path)).toEqual(["incidents[0].id"]);
    expect(read.observations.map((o) => o.incident.id)).toEqual(["ok1"]);
  });

  it("skips an update whose timestamp is not a timestamp, naming its path, and keeps the rest", async () => {
    const bad = { id: "u1", status: "investigating", body: "x", created_at: "yesterday" };
    const good = { id: "u2", status: "identified", body: "y", created_at: "2026-03-01T10:00:00Z" };
    const read = await statuspageIncidentPlatform.parse(json({ incident: { id: "i1", name: "Bad time", incident_updates: [bad, good] } }), ctx);
    expect(read.warnings).toEqual([expect.objectContaining({ path: "incident.incident_updates[0].created_at", message: expect.stringContaining("yesterday") })]);
    expect(read.observations[0]?.incident.updates.map((u) => u.id)).toEqual(["u2"]);
    expect(read.observations[0]?.partialUpdates).toBe(true);
  });

  it("states no impact when the impact word is unknown, and no components when one has no id", async () => {
    const incident = { id: "i1", name: "x", impact: "catastrophic", components: [{ name: "API" }, { id: "web", name: "Web" }] };
    const read = await statuspageIncidentPlatform.parse(json({ incident }), ctx);
    expect(read.warnings.map((w) => w.path)).toEqual(["incident.impact", "incident.components[0].id"]);
    expect(read.observations[0]?.unstated).toEqual(expect.arrayContaining(["impact", "components", "kind"]));
  });

  it("refuses a list payload with neither incidents nor scheduled_maintenances", async () => {
    const error = await parseError(statuspageIncidentsPlatform, json({ page: { url: "https://x.test" } }));
    expect(error.kind).toBe("schema");
  });

  it("treats an empty or whitespace body as a failed fetch, and non-JSON as unparseable", async () => {
    expect((await parseError(statuspageSummaryPlatform, new Uint8Array())).kind).toBe("empty");
    expect((await parseError(statuspageIncidentPlatform, new TextEncoder().encode(" \n"))).kind).toBe("empty");
    expect((await parseError(statuspageIncidentsPlatform, new TextEncoder().encode("<html>502</html>"))).kind).toBe(
      "unparseable",
    );
  });
});

const JSON_FOLDERS: Array<[string, Platform]> = [
  ["statuspage-summary-github-2025", statuspageSummaryPlatform],
  ["statuspage-summary-jira", statuspageSummaryPlatform],
  ["statuspage-summary-trello-nonutc", statuspageSummaryPlatform],
  ["statuspage-incident-github-single", statuspageIncidentPlatform],
];

async function parseSnapshot(platform: Platform, file: string, vendor: string): Promise<Incident[]> {
  return parseIncidents(platform, fs.readFileSync(file), { vendor, source: path.basename(file), observedAt: observedAtOf(file) });
}

async function snapshotAt(folder: string, stamp: string, platform: Platform): Promise<Incident[]> {
  const file = corpusSnapshots(folder).find((f) => path.basename(f).startsWith(stamp));
  if (!file) throw new Error(`no snapshot ${stamp} in ${folder}`);
  return parseSnapshot(platform, file, folder);
}

describeCorpus("statuspage JSON platforms on real snapshots", () => {
  it.each(JSON_FOLDERS)("parses every non-empty %s snapshot into valid incidents", async (folder, platform) => {
    let empty = 0;
    for (const file of corpusSnapshots(folder)) {
      if (fs.statSync(file).size === 0) {
        await expect(parseSnapshot(platform, file, folder)).rejects.toMatchObject({ kind: "empty" });
        empty += 1;
        continue;
      }
      for (const incident of await parseSnapshot(platform, file, folder)) {
        const checked = incidentSchema.safeParse(incident);
        expect(checked.success, `${path.basename(file)} ${incident.id}: ${checked.error?.message}`).toBe(true);
        expect(incident.vendor).toBe(folder);
      }
    }
    if (folder === "statuspage-summary-trello-nonutc") expect(empty).toBe(55);
  });

  it("parses the incidents.json sample with page-based urls", async () => {
    const file = corpusPath("samples", "statuspage-incidents", "github-jtprogru-weekly-incident.json");
    const incidents = await parseIncidents(statuspageIncidentsPlatform, fs.readFileSync(file), { ...ctx, vendor: "github" });
    expect(incidents).toHaveLength(5);
    for (const incident of incidents) {
      expect(incidentSchema.safeParse(incident).success).toBe(true);
      expect(incident.status).toBe("resolved");
      expect(incident.url).toBe(`https://www.githubstatus.com/incidents/${incident.id}`);
    }
  });

  it("keeps the update id of GitHub 71tl7pkqysgw's investigating update when its text is rewritten", async () => {
    const folder = "statuspage-summary-github-2025";
    const before = only(await snapshotAt(folder, "20250516T204224Z", statuspageSummaryPlatform), "71tl7pkqysgw");
    const after = only(await snapshotAt(folder, "20250516T205357Z", statuspageSummaryPlatform), "71tl7pkqysgw");
    const old = before.updates.find((u) => u.id === "xb31thl6mvj9");
    const rewritten = after.updates.find((u) => u.id === "xb31thl6mvj9");
    expect(old?.body).toMatch(/^We identified and stopped a stuck migration/);
    expect(rewritten?.body).toMatch(/^Investigations on the incident impacting GitHub Enterprise Importer continue/);
    expect([old?.displayAt, rewritten?.displayAt]).toEqual(["2025-05-16T20:36:07.374Z", "2025-05-16T20:36:07.000Z"]);
    expect([before.startedAt, after.startedAt]).toEqual(["2025-05-16T13:46:13.653Z", "2025-05-16T20:36:07.000Z"]);
  });

  it("shows Jira 0g08w3s3xd87 downgraded from major to minor at 20250206T093723Z", async () => {
    const folder = "statuspage-summary-jira";
    const before = only(await snapshotAt(folder, "20250205T111333Z", statuspageSummaryPlatform), "0g08w3s3xd87");
    const after = only(await snapshotAt(folder, "20250206T093723Z", statuspageSummaryPlatform), "0g08w3s3xd87");
    expect([before.impact, after.impact]).toEqual(["major", "minor"]);
  });

  it("converts Trello's -05:00 and -04:00 timestamps to UTC", async () => {
    const folder = "statuspage-summary-trello-nonutc";
    const winter = only(await snapshotAt(folder, "20230124T165419Z", statuspageSummaryPlatform), "c4vgjn77l3kr");
    expect(winter.startedAt).toBe("2023-01-24T16:50:50.496Z");
    const summer = only(await snapshotAt(folder, "20230313T201559Z", statuspageSummaryPlatform), "4rc3klxlq9kr");
    expect(summer.startedAt).toBe("2023-03-13T19:51:35.966Z");
  });
});
