import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { ParsedSnapshot } from "@/lib/derive/observation";
import { incidentSchema, type Incident } from "@/lib/incident";
import { isDerivedUpdateId } from "@/lib/update-identity";
import { gcpPlatform, isIncidentReport } from "@/scrapers/platforms/gcp";
import { corpusPath, corpusSnapshots, describeCorpus } from "@/tests/support/corpus";
import { findIncident, parseCorpusFile, snapshotRejection, parseIncidents } from "@/tests/support/parsing";

const FIXTURES = path.join(__dirname, "..", "..", "fixtures", "gcp");
const context = { vendor: "google-cloud", source: "fixture.json", observedAt: "2026-02-01T00:00:00.000Z" };

function parseText(text: string): Promise<Incident[]> {
  return parseIncidents(gcpPlatform, new TextEncoder().encode(text), context);
}

function parseFixture(name: string): Promise<Incident[]> {
  return parseIncidents(gcpPlatform, fs.readFileSync(path.join(FIXTURES, name)), context);
}

function parseSnapshot(file: string): Promise<Incident[]> {
  return parseCorpusFile(gcpPlatform, file, "google-cloud");
}

function readText(text: string): Promise<ParsedSnapshot> {
  return gcpPlatform.parse(new TextEncoder().encode(text), context);
}

function fixtureList(name: string): unknown[] {
  return JSON.parse(fs.readFileSync(path.join(FIXTURES, name), "utf8")) as unknown[];
}

function readFixture(name: string): Promise<ParsedSnapshot> {
  return readText(JSON.stringify(fixtureList(name)));
}

function update(overrides: Record<string, unknown>): Record<string, unknown> {
  return { created: "2026-01-01T01:00:00Z", when: "2026-01-01T01:00:00Z", text: "t", status: "SERVICE_INFORMATION", ...overrides };
}

function incident(overrides: Record<string, unknown>): Record<string, unknown> {
  return { id: "a", external_desc: "x", begin: "2026-01-01T00:00:00Z", severity: "low", uri: "incidents/a", updates: [update({})], ...overrides };
}

describe("gcp platform: pre-2021 incident shape", () => {
  it("identifies a legacy incident by service key and number and maps its single service", async () => {
    const [resolved, ongoing] = await parseFixture("legacy-schema-handwritten-from-documented-shape.json");
    expect(resolved).toMatchObject({
      id: "cloud-networking/19009",
      status: "resolved",
      impact: "critical",
      url: "https://status.cloud.google.com/incident/cloud-networking/19009",
      startedAt: "2019-06-02T18:45:00.000Z",
      resolvedAt: "2019-06-03T04:15:00.000Z",
      components: [{ id: "cloud-networking", name: "Google Cloud Networking" }],
    });
    expect(ongoing).toMatchObject({ id: "compute/19010", status: "ongoing", impact: "major", resolvedAt: null });
  });

  it("orders legacy updates oldest first with ids from their creation time and no status", async () => {
    const [resolved] = await parseFixture("legacy-schema-handwritten-from-documented-shape.json");
    expect(resolved?.updates.map((u) => [u.id, u.status, u.displayAt])).toEqual([
      ["~20190602T192549Z", null, "2019-06-02T19:25:49.000Z"],
      ["~20190603T042011Z", null, "2019-06-03T04:20:11.000Z"],
      ["~20190611T090000Z", null, "2019-06-11T08:55:00.000Z"],
    ]);
  });

  it("takes the incident report as postmortem, published at its display time, and keeps it as an update", async () => {
    const [resolved, ongoing] = await parseFixture("legacy-schema-handwritten-from-documented-shape.json");
    expect(resolved?.postmortem?.body).toMatch(/^# Incident Report\n/);
    expect(resolved?.postmortem?.publishedAt).toBe("2019-06-11T08:55:00.000Z");
    expect(resolved?.updates.at(-1)?.body).toBe(resolved?.postmortem?.body);
    expect(ongoing?.postmortem).toBeNull();
  });

  it("accepts legacy and current incidents side by side in one array", async () => {
    const legacy: unknown[] = JSON.parse(fs.readFileSync(path.join(FIXTURES, "legacy-schema-handwritten-from-documented-shape.json"), "utf8"));
    const current: unknown[] = JSON.parse(fs.readFileSync(path.join(FIXTURES, "current-schema-handwritten.json"), "utf8"));
    const incidents = await parseText(JSON.stringify([current[1], legacy[0]]));
    expect(incidents.map((i) => i.id)).toEqual(["HandWrittenAAAAAAAAA2", "cloud-networking/19009"]);
  });
});

describe("gcp platform: current incident shape", () => {
  it("keeps the first listing of an id that appears twice", async () => {
    const incidents = await parseFixture("current-schema-handwritten.json");
    expect(incidents.map((i) => i.id)).toEqual(["HandWrittenAAAAAAAAA1", "HandWrittenAAAAAAAAA2"]);
    expect(findIncident(incidents, "HandWrittenAAAAAAAAA1").title).toMatch(/^Hand-written: /);
  });

  it("takes an open incident's status from its most recent update, lowercased", async () => {
    const open = findIncident(await parseFixture("current-schema-handwritten.json"), "HandWrittenAAAAAAAAA1");
    expect(open.status).toBe("service_disruption");
    expect(open.resolvedAt).toBeNull();
    expect(open.updates.map((u) => u.status)).toEqual(["service_information", "service_disruption"]);
  });

  it("maps affected products by their title at incident time, not their renamed current title", async () => {
    const open = findIncident(await parseFixture("current-schema-handwritten.json"), "HandWrittenAAAAAAAAA1");
    expect(open.components).toEqual([
      { id: "WidgetProductId00001", name: "Cloud Widgets" },
      { id: "GadgetProductId00002", name: "Cloud Gadgets" },
    ]);
  });

  it("states no impact for a severity it does not know, even one named like an object property", async () => {
    const snapshot = await readFixture("current-schema-handwritten.json");
    const open = findIncident(snapshot.observations.map((o) => o.incident), "HandWrittenAAAAAAAAA1");
    expect(open.impact).toBeNull();
    expect(incidentSchema.safeParse(open).success).toBe(true);
    expect(snapshot.observations[0]?.unstated).toEqual(["impact"]);
  });

  it("keeps hostile markup in Markdown texts verbatim for the renderer to escape", async () => {
    const open = findIncident(await parseFixture("current-schema-handwritten.json"), "HandWrittenAAAAAAAAA1");
    expect(open.title).toContain("<script>alert(1)</script>");
    expect(open.updates.at(-1)?.body).toBe(
      '**Summary**\nStill degraded. [details](javascript:alert(3)) <iframe src="https://evil.example"></iframe>',
    );
  });

  it("builds the page url whether or not the uri has a leading slash", async () => {
    const incidents = await parseFixture("current-schema-handwritten.json");
    expect(incidents.map((i) => i.url)).toEqual([
      "https://status.cloud.google.com/incidents/HandWrittenAAAAAAAAA1",
      "https://status.cloud.google.com/incidents/HandWrittenAAAAAAAAA2",
    ]);
  });

  it("chooses the newest incident report as postmortem and ignores updates that only mention one", async () => {
    const closed = findIncident(await parseFixture("current-schema-handwritten.json"), "HandWrittenAAAAAAAAA2");
    expect(closed.postmortem).toEqual({
      body: "## **Incident Report**\n\nThe full hand-written report.",
      publishedAt: "2026-01-20T12:00:00.000Z",
    });
    expect(closed.updates).toHaveLength(3);
  });

  it("recognizes the report headings GCP uses and nothing that merely mentions a report", () => {
    for (const heading of ["# Incident Report", "## \\# Mini Incident Report", "### Mini Incident Report", "# Preliminary Incident Report", "## **Incident Report**"]) {
      expect(isIncidentReport(`${heading}\n\nbody`), heading).toBe(true);
    }
    expect(isIncidentReport("We will publish an incident report.\n# Incident Report")).toBe(false);
    expect(isIncidentReport("**Summary**\nIncident Report to follow")).toBe(false);
  });
});

describe("gcp platform: broken snapshots", () => {
  it("reports an empty body as a failed fetch", async () => {
    expect((await snapshotRejection(parseText(""))).kind).toBe("empty");
  });

  it("reports a body that is not JSON as unparseable", async () => {
    expect((await snapshotRejection(parseText("<html>502 Bad Gateway</html>"))).kind).toBe("unparseable");
  });

  it("rejects a top level that is not an array, naming vendor and source", async () => {
    const error = await snapshotRejection(parseText('{"incidents": []}'));
    expect(error.kind).toBe("schema");
    expect(error.message).toContain("google-cloud: snapshot from fixture.json is invalid at (root)");
  });
});

describe("gcp platform: a malformed element costs only itself", () => {
  it("says where each incident is in the payload", async () => {
    const snapshot = await readFixture("current-schema-handwritten.json");
    expect(snapshot.observations.map((o) => [o.incident.id, o.path])).toEqual([
      ["HandWrittenAAAAAAAAA1", "[0]"],
      ["HandWrittenAAAAAAAAA2", "[1]"],
    ]);
  });

  it("loses only the components of an incident with a product without id, as in the spring 2021 format change", async () => {
    const list = fixtureList("current-schema-handwritten.json");
    const products = (list[0] as { affected_products: Array<Record<string, unknown>> }).affected_products;
    delete products[1]?.id;
    const snapshot = await readText(JSON.stringify(list));
    expect(snapshot.warnings).toEqual([
      { path: "[0].severity", message: 'unknown severity "constructor"' },
      { path: "[0].affected_products[1].id", message: expect.stringMatching(/expected string/) },
    ]);
    const [broken, whole] = snapshot.observations;
    expect(broken?.unstated).toEqual(["impact", "components"]);
    expect(broken?.incident).toMatchObject({ id: "HandWrittenAAAAAAAAA1", title: expect.stringMatching(/^Hand-written: /), status: "service_disruption" });
    expect(broken?.incident.updates).toHaveLength(2);
    expect(whole).toMatchObject({ path: "[1]", unstated: [], partialUpdates: false });
    expect(snapshot.unread).toEqual([]);
  });

  it("reads a current-shape incident without an id as unread and reads the others", async () => {
    const snapshot = await readText(JSON.stringify([{ number: "1", external_desc: "x", updates: [] }, incident({ id: "b" })]));
    expect(snapshot.unread).toEqual([{ id: null, path: "[0]" }]);
    expect(snapshot.warnings.map((w) => w.path)).toEqual(["[0].id"]);
    expect(snapshot.observations.map((o) => o.incident.id)).toEqual(["b"]);
  });

  it("reads a legacy incident without a service key as unread: its id is made of it", async () => {
    const snapshot = await readText(JSON.stringify([{ number: 19001, external_desc: "x", updates: [] }]));
    expect(snapshot.unread).toEqual([{ id: null, path: "[0]" }]);
    expect(snapshot.warnings.map((w) => w.path)).toEqual(["[0].service_key", "[0].service_name"]);
  });

  it("reads an element that is not an object as unread", async () => {
    const snapshot = await readText(JSON.stringify(["oops", incident({ id: "b" })]));
    expect(snapshot.unread).toEqual([{ id: null, path: "[0]" }]);
    expect(snapshot.warnings).toEqual([{ path: "[0]", message: "expected an object, got string" }]);
    expect(snapshot.observations).toHaveLength(1);
  });

  it("leaves the components of a legacy incident with an unreadable service name unstated", async () => {
    const snapshot = await readText(JSON.stringify([{ number: 19001, service_key: "compute", service_name: 7, external_desc: "x", updates: [] }]));
    expect(snapshot.observations[0]).toMatchObject({ incident: { id: "compute/19001", components: [] }, unstated: ["components"] });
    expect(snapshot.warnings.map((w) => w.path)).toEqual(["[0].service_name"]);
  });

  it("skips an update whose time is not a timestamp, with the status and postmortem worked out from the list", async () => {
    const bad = incident({ updates: [update({ created: "2026-01-01T00:00:00Z", status: "SERVICE_OUTAGE" }), update({ created: "yesterday" })] });
    const snapshot = await readText(JSON.stringify([bad]));
    expect(snapshot.warnings).toEqual([{ path: "[0].updates[1].created", message: expect.stringMatching(/not an ISO-8601 timestamp/) }]);
    const [observed] = snapshot.observations;
    expect(observed?.incident.updates.map((u) => u.createdAt)).toEqual(["2026-01-01T00:00:00.000Z"]);
    expect(observed?.partialUpdates).toBe(true);
    // Without a most recent update the newest listed one gives the status, and it may be the skipped one.
    expect(observed?.unstated).toEqual(["postmortem", "status"]);
  });

  it("keeps the status stated by the end or the most recent update when an update is skipped", async () => {
    const updates = [update({}), update({ created: "yesterday" })];
    const ended = incident({ id: "ended", end: "2026-01-02T00:00:00Z", updates });
    const open = incident({ id: "open", most_recent_update: { status: "SERVICE_DISRUPTION" }, updates });
    const snapshot = await readText(JSON.stringify([ended, open]));
    expect(snapshot.observations.map((o) => [o.incident.status, o.unstated])).toEqual([
      ["resolved", ["postmortem"]],
      ["service_disruption", ["postmortem"]],
    ]);
  });

  it("leaves the status of an open incident unstated when its most recent update cannot be read", async () => {
    const snapshot = await readText(JSON.stringify([incident({ most_recent_update: { status: 3 } })]));
    expect(snapshot.warnings.map((w) => w.path)).toEqual(["[0].most_recent_update.status"]);
    expect(snapshot.observations[0]?.unstated).toEqual(["status"]);
  });

  it("leaves the updates, the postmortem and the open status unstated when the updates are not a list", async () => {
    const snapshot = await readText(JSON.stringify([incident({ updates: "none" })]));
    expect(snapshot.warnings.map((w) => w.path)).toEqual(["[0].updates"]);
    expect(snapshot.observations[0]).toMatchObject({ unstated: ["updates", "postmortem", "status"], partialUpdates: false });
  });

  it("leaves a field of the wrong type unstated, and the status with an unreadable end", async () => {
    const snapshot = await readText(JSON.stringify([incident({ external_desc: 42, uri: [], begin: "soon", end: "later" })]));
    expect(snapshot.warnings.map((w) => w.path)).toEqual(["[0].begin", "[0].end", "[0].external_desc", "[0].uri"]);
    expect(snapshot.observations[0]).toMatchObject({
      incident: { title: "", url: null, startedAt: null, resolvedAt: null },
      unstated: ["title", "url", "startedAt", "resolvedAt", "status"],
    });
  });

  it("leaves the impact of a severity it does not know unstated, with a warning, rather than calling it none", async () => {
    const snapshot = await readText(JSON.stringify([incident({ severity: "catastrophic" }), incident({ id: "b", severity: null })]));
    expect(snapshot.warnings).toEqual([{ path: "[0].severity", message: 'unknown severity "catastrophic"' }]);
    expect(snapshot.observations.map((o) => [o.incident.impact, o.unstated])).toEqual([[null, ["impact"]], [null, []]]);
  });

  it("ignores a second listing of an id even when the first is the one partly unreadable", async () => {
    const snapshot = await readText(JSON.stringify([incident({ external_desc: 1 }), incident({ external_desc: "second" })]));
    expect(snapshot.observations).toHaveLength(1);
    expect(snapshot.observations[0]).toMatchObject({ path: "[0]", incident: { title: "" }, unstated: ["title"] });
  });
});

describeCorpus("gcp platform on real incidents.json snapshots", () => {
  const folder = "gcp-incidents";
  const files = corpusSnapshots(folder);

  function previousOf(stamp: string): [string, string] {
    const index = files.findIndex((f) => path.basename(f).startsWith(stamp));
    const before = files.slice(0, index).findLast((f) => fs.statSync(f).size > 0);
    const current = files[index];
    if (!before || !current) throw new Error(`no snapshot pair at ${stamp}`);
    return [before, current];
  }

  it("parses every snapshot into valid incidents, and a 0-byte file as a failed fetch", async () => {
    let incidents = 0;
    for (const file of files) {
      if (fs.statSync(file).size === 0) {
        expect((await snapshotRejection(parseSnapshot(file))).kind).toBe("empty");
        continue;
      }
      for (const incident of await parseSnapshot(file)) {
        expect(incidentSchema.safeParse(incident).error).toBeUndefined();
        incidents += 1;
      }
    }
    expect(incidents).toBeGreaterThan(2000);
  });

  it("sees 41E5S3mkTGDfkZuJZH5k's end move 14:45 → 14:35 and begin 12:36 → 12:37 at 20260305T011055Z", async () => {
    const [before, after] = previousOf("20260305T011055Z");
    const old = findIncident(await parseSnapshot(before), "41E5S3mkTGDfkZuJZH5k");
    const now = findIncident(await parseSnapshot(after), "41E5S3mkTGDfkZuJZH5k");
    expect([old.startedAt, old.resolvedAt]).toEqual(["2026-02-27T12:36:00.000Z", "2026-02-27T14:45:00.000Z"]);
    expect([now.startedAt, now.resolvedAt]).toEqual(["2026-02-27T12:37:00.000Z", "2026-02-27T14:35:00.000Z"]);
  });

  it("keeps the derived ids of three 3BvH3LVGcupoYqV6F4Nw updates whose text was corrected at 20260716T070801Z", async () => {
    const [before, after] = previousOf("20260716T070801Z");
    const old = findIncident(await parseSnapshot(before), "3BvH3LVGcupoYqV6F4Nw");
    const now = findIncident(await parseSnapshot(after), "3BvH3LVGcupoYqV6F4Nw");
    const edited = old.updates.filter((u) => u.body.includes("Bare Metal Solutions"));
    expect(edited).toHaveLength(3);
    const renamedOnly = edited.filter((update) => {
      const same = now.updates.find((u) => u.id === update.id);
      expect(isDerivedUpdateId(update.id)).toBe(true);
      expect(same?.createdAt).toBe(update.createdAt);
      expect(same?.body).toContain("Bare Metal Solution (BMS)");
      expect(same?.body).not.toContain("Bare Metal Solutions");
      return same?.body === update.body.replaceAll("Bare Metal Solutions", "Bare Metal Solution");
    });
    // The 04:41:44 update was also rewritten in other sentences in the same snapshot.
    expect(renamedOnly.map((u) => u.createdAt)).toEqual(["2026-07-16T03:30:59.000Z", "2026-07-16T04:17:44.000Z"]);
  });

  it("finds the incident reports in the captured post-incident sample", async () => {
    const file = corpusPath("samples", "gcp-incidents", "jtprogru-weekly-incident.json");
    const incidents = await parseIncidents(gcpPlatform, fs.readFileSync(file), { ...context, source: path.basename(file) });
    expect(incidents).toHaveLength(2);
    for (const incident of incidents) {
      expect(incidentSchema.safeParse(incident).success).toBe(true);
      expect(incident.postmortem?.body).toMatch(/Incident Report/);
      expect(incident.updates.map((u) => u.body)).toContain(incident.postmortem?.body);
    }
  });
});
