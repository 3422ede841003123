import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { ParsedSnapshot } from "@/lib/derive/observation";
import { incidentSchema, type Incident } from "@/lib/incident";
import { awsLegacyPlatform, splitResolvedMark } from "@/scrapers/platforms/aws-legacy";
import { corpusSnapshots, describeCorpus } from "@/tests/support/corpus";
import { findIncident, parseCorpusFile, snapshotRejection, parseIncidents } from "@/tests/support/parsing";

const FIXTURE = path.join(__dirname, "..", "..", "fixtures", "aws", "data-handwritten.json");
const context = { vendor: "aws", source: "fixture.json", observedAt: "2021-06-10T00:00:00.000Z" };

function parseText(text: string): Promise<Incident[]> {
  return parseIncidents(awsLegacyPlatform, new TextEncoder().encode(text), context);
}

function parseFixture(): Promise<Incident[]> {
  return parseIncidents(awsLegacyPlatform, fs.readFileSync(FIXTURE), context);
}

function parseSnapshot(file: string): Promise<Incident[]> {
  return parseCorpusFile(awsLegacyPlatform, file, "aws");
}

function readText(text: string): Promise<ParsedSnapshot> {
  return awsLegacyPlatform.parse(new TextEncoder().encode(text), context);
}

function event(overrides: Record<string, unknown>): Record<string, unknown> {
  return { service_name: "S", service: "s", summary: "x", date: "1622566800", status: "1", description: "", ...overrides };
}

describe("aws-legacy platform: events", () => {
  it("identifies an event by its start epoch and service key and maps it without impact", async () => {
    const ec2 = findIncident(await parseFixture(), "1615707600-hw-ec2-us-east-1");
    expect(ec2).toMatchObject({
      kind: "incident",
      title: "Hand-written: instance launch errors",
      status: "degraded",
      impact: null,
      url: "https://status.aws.amazon.com/",
      startedAt: "2021-03-14T07:40:00.000Z",
      resolvedAt: null,
      components: [{ id: "hw-ec2-us-east-1", name: "Hand-written EC2 (N. Virginia)" }],
    });
  });

  it("keeps the current listing when the archive repeats an event", async () => {
    const incidents = await parseFixture();
    expect(incidents.filter((i) => i.id === "1615707600-hw-ec2-us-east-1")).toHaveLength(1);
    expect(incidents.map((i) => i.id)[0]).toBe("1615707600-hw-ec2-us-east-1");
    expect(findIncident(incidents, "1615707600-hw-ec2-us-east-1").updates).toHaveLength(5);
  });

  it("dates bare times from the event's local day, rolling over at midnight and across a DST change", async () => {
    const ec2 = findIncident(await parseFixture(), "1615707600-hw-ec2-us-east-1");
    expect(ec2.updates.map((u) => u.createdAt)).toEqual([
      "2021-03-14T07:45:00.000Z",
      "2021-03-14T08:30:00.000Z",
      "2021-03-14T10:10:00.000Z",
      "2021-03-15T16:00:00.000Z",
      "2021-03-16T15:00:00.000Z",
    ]);
    expect(ec2.updates.map((u) => u.id)[0]).toBe("~20210314T074500Z");
    expect(ec2.updates.every((u) => u.displayAt === u.createdAt && u.status === null)).toBe(true);
  });

  it("strips scripts, handlers and javascript links from update text", async () => {
    const ec2 = findIncident(await parseFixture(), "1615707600-hw-ec2-us-east-1");
    expect(ec2.updates[1]?.body).toBe("Still investigating. status");
    expect(ec2.updates[3]?.body).toBe("Recovered.\nDetails follow.");
    expect(ec2.updates.map((u) => u.body).join("\n")).not.toMatch(/alert|<|javascript:|&nbsp;/);
  });

  it("reads a dated time across new year and a numeric status and epoch", async () => {
    const s3 = findIncident(await parseFixture(), "1609486200-hw-s3");
    expect(s3.updates.map((u) => u.createdAt)).toEqual(["2021-01-01T07:30:00.000Z", "2021-01-01T08:15:00.000Z"]);
  });

  it("treats the [RESOLVED] prefix as status, not title, and claims no end time the feed does not state", async () => {
    const s3 = findIncident(await parseFixture(), "1609486200-hw-s3");
    expect(s3).toMatchObject({ title: "Hand-written: slow listings", status: "resolved", resolvedAt: null });
  });

  it("strips the resolved mark from every translation of a multilingual summary", () => {
    expect(splitResolvedMark("[已解决] 实例不可用 ｜[已解決] 實例不可用 ｜[RESOLVED] Instance Unavailability")).toEqual({
      title: "实例不可用 ｜實例不可用 ｜Instance Unavailability",
      resolved: true,
    });
    expect(splitResolvedMark("Errors after [RESOLVED] tickets")).toEqual({ title: "Errors after [RESOLVED] tickets", resolved: false });
  });

  it("makes a description without timestamps one update at the start, keyed by a slug of the service name", async () => {
    const dns = findIncident(await parseFixture(), "1622566800-hand-written-route-53");
    expect(dns.title).toBe("DNS delays");
    expect(dns.components).toEqual([{ id: "hand-written-route-53", name: "Hand-written Route 53" }]);
    expect(dns.updates).toEqual([
      {
        id: "~20210601T170000Z",
        status: null,
        body: "Plain description without times & more.",
        createdAt: "2021-06-01T17:00:00.000Z",
        displayAt: "2021-06-01T17:00:00.000Z",
      },
    ]);
  });

  it("folds undated text into the timed update it follows and numbers two updates in one minute", async () => {
    const lambda = findIncident(await parseFixture(), "1622649600-hw-lambda-us-east-1");
    expect(lambda.updates.map((u) => [u.id, u.body])).toEqual([
      ["~20210602T160500Z", "Lead-in outside any div.\n\nFirst.\n\nAn undated continuation."],
      ["~20210602T160500Z-2", "Same minute."],
    ]);
    expect(lambda.status).toBe("informational");
  });
});

describe("aws-legacy platform: broken snapshots", () => {
  it("reports an empty body as a failed fetch and non-JSON as unparseable", async () => {
    expect((await snapshotRejection(parseText(""))).kind).toBe("empty");
    expect((await snapshotRejection(parseText("{\"current\": ["))).kind).toBe("unparseable");
  });

  it("rejects a top level that is not an object, naming vendor and source", async () => {
    const error = await snapshotRejection(parseText("[]"));
    expect(error.kind).toBe("schema");
    expect(error.message).toContain("aws: snapshot from fixture.json is invalid at (root)");
  });

  it("rejects a current list that is not a list", async () => {
    const error = await snapshotRejection(parseText(JSON.stringify({ current: "none" })));
    expect(error.message).toContain("invalid at current");
  });
});

describe("aws-legacy platform: a malformed element costs only itself", () => {
  it("says where each event is in the payload, the current listing of a repeated one included", async () => {
    const snapshot = await readText(fs.readFileSync(FIXTURE, "utf8"));
    expect(snapshot.observations.map((o) => [o.incident.id, o.path])).toEqual([
      ["1615707600-hw-ec2-us-east-1", "current[0]"],
      ["1609486200-hw-s3", "current[1]"],
      ["1622566800-hand-written-route-53", "archive[1]"],
      ["1622649600-hw-lambda-us-east-1", "archive[2]"],
    ]);
    expect(snapshot.warnings).toEqual([]);
  });

  it("reads an event whose start is not epoch seconds as unread: its id is made of it", async () => {
    const snapshot = await readText(JSON.stringify({ current: [], archive: [event({}), event({ date: "yesterday" })] }));
    expect(snapshot.unread).toEqual([{ id: null, path: "archive[1]" }]);
    expect(snapshot.warnings).toEqual([{ path: "archive[1].date", message: expect.stringMatching(/epoch seconds/) }]);
    expect(snapshot.observations.map((o) => o.path)).toEqual(["archive[0]"]);
  });

  it("reads an event whose service key is not text as unread rather than keying it by its name", async () => {
    const snapshot = await readText(JSON.stringify({ current: [event({ service: 42 }), "oops"] }));
    expect(snapshot.unread).toEqual([{ id: null, path: "current[0]" }, { id: null, path: "current[1]" }]);
    expect(snapshot.warnings.map((w) => w.path)).toEqual(["current[0].service", "current[1]"]);
  });

  it("leaves the status of a status code outside 0-3 unstated, unless the summary says it is resolved", async () => {
    const snapshot = await readText(JSON.stringify({ current: [event({ status: "7" }), event({ service: "t", status: "7", summary: "[RESOLVED] x" })] }));
    expect(snapshot.warnings.map((w) => w.path)).toEqual(["current[0].status", "current[1].status"]);
    expect(snapshot.observations.map((o) => [o.incident.status, o.unstated])).toEqual([[null, ["status"]], ["resolved", []]]);
  });

  it("leaves the title and status unstated when the summary is not text", async () => {
    const snapshot = await readText(JSON.stringify({ current: [event({ summary: ["x"] })] }));
    expect(snapshot.observations[0]).toMatchObject({ incident: { title: "" }, unstated: ["title", "status"] });
  });

  it("leaves the components unstated when the service name is not text, keeping the id from the service key", async () => {
    const snapshot = await readText(JSON.stringify({ current: [event({ service_name: null })] }));
    expect(snapshot.warnings.map((w) => w.path)).toEqual(["current[0].service_name"]);
    expect(snapshot.observations[0]).toMatchObject({ incident: { id: "1622566800-s", components: [] }, unstated: ["components"] });
  });

  it("leaves the updates unstated when the description is not text", async () => {
    const snapshot = await readText(JSON.stringify({ current: [event({ description: { html: "x" } })] }));
    expect(snapshot.warnings.map((w) => w.path)).toEqual(["current[0].description"]);
    expect(snapshot.observations[0]).toMatchObject({ unstated: ["updates"], partialUpdates: false });
  });

  it("skips a timeline entry in an unknown zone and the bare times after it until a dated one", async () => {
    const description = [
      '<div><span class="yellowfg"> 9:00 AM PDT</span>&nbsp;first</div>',
      '<div><span class="yellowfg"> 9:26 AM XYZ</span>&nbsp;unknown zone</div>',
      "<div>its continuation</div>",
      '<div><span class="yellowfg">10:00 AM PDT</span>&nbsp;day unknown</div>',
      '<div><span class="yellowfg">Jun 2, 8:00 AM PDT</span>&nbsp;dated again</div>',
      '<div><span class="yellowfg"> 9:00 AM PDT</span>&nbsp;bare after dated</div>',
    ].join("");
    const snapshot = await readText(JSON.stringify({ current: [event({ description })] }));
    expect(snapshot.warnings).toEqual([
      { path: "current[0].description.timeline[1]", message: 'unknown time zone "XYZ"' },
      { path: "current[0].description.timeline[3]", message: "bare time after an unreadable one: its day is not known" },
    ]);
    const [observed] = snapshot.observations;
    expect(observed).toMatchObject({ unstated: [], partialUpdates: true });
    expect(observed?.incident.updates.map((u) => [u.createdAt, u.body])).toEqual([
      ["2021-06-01T16:00:00.000Z", "first"],
      ["2021-06-02T15:00:00.000Z", "dated again"],
      ["2021-06-02T16:00:00.000Z", "bare after dated"],
    ]);
  });

  it("does not make a timeline whose every time is unreadable one untimed update", async () => {
    const description = '<div><span class="yellowfg">9:99 AM PST</span>&nbsp;text</div>';
    const snapshot = await readText(JSON.stringify({ current: [event({ description })] }));
    expect(snapshot.warnings.map((w) => w.path)).toEqual(["current[0].description.timeline[0]"]);
    expect(snapshot.observations[0]).toMatchObject({ incident: { updates: [] }, partialUpdates: true });
  });

  it("leaves the start and the updates unstated for a start past year 9999, instead of writing a six-digit year", async () => {
    const description = '<div><span class="yellowfg">9:00 AM PST</span>&nbsp;text</div>';
    const snapshot = await readText(JSON.stringify({ current: [event({ date: "8640000000000", description })] }));
    expect(snapshot.warnings).toEqual([{ path: "current[0].date", message: expect.stringMatching(/time out of range/) }]);
    expect(snapshot.observations[0]).toMatchObject({ incident: { startedAt: null, updates: [] }, unstated: ["startedAt", "updates"] });
  });

  it("skips a timeline entry that runs past year 9999", async () => {
    // 31 Dec 9999, 12:00 UTC: the evening update in PST falls on 1 Jan 10000 UTC.
    const description = '<div><span class="yellowfg">11:00 AM PST</span>&nbsp;kept</div><div><span class="yellowfg">11:59 PM PST</span>&nbsp;text</div>';
    const snapshot = await readText(JSON.stringify({ archive: [event({ date: "253402257600", description })] }));
    expect(snapshot.warnings).toEqual([{ path: "archive[0].description.timeline[1]", message: expect.stringMatching(/time out of range/) }]);
    expect(snapshot.observations[0]?.incident.updates.map((u) => u.body)).toEqual(["kept"]);
    expect(snapshot.observations[0]?.partialUpdates).toBe(true);
  });

  it("ignores the archive's listing of an event even when the current one is partly unreadable", async () => {
    const snapshot = await readText(JSON.stringify({ current: [event({ summary: 1 })], archive: [event({ summary: "archived" })] }));
    expect(snapshot.observations).toHaveLength(1);
    expect(snapshot.observations[0]).toMatchObject({ path: "current[0]", unstated: ["title", "status"] });
  });
});

describe("aws-legacy platform: profile", () => {
  it("states no impact and no end, the dashboard link only as a stand-in, and update times to the minute", () => {
    const { fields, updates } = awsLegacyPlatform.profile;
    expect([fields.impact, fields.resolvedAt, fields.url]).toEqual([undefined, undefined, "inferred"]);
    expect(updates).toMatchObject({ list: "full", time: "minute", text: "rendered" });
  });
});

describeCorpus("aws-legacy platform on the December 2021 data.json snapshots", () => {
  const files = corpusSnapshots("aws-data-json-2021-12");

  function pairAt(stamp: string): [string, string] {
    const index = files.findIndex((f) => path.basename(f).startsWith(stamp));
    const before = files.slice(0, index).findLast((f) => fs.statSync(f).size > 0);
    const current = files[index];
    if (!before || !current) throw new Error(`no snapshot pair at ${stamp}`);
    return [before, current];
  }

  function snapshotAt(stamp: string): string {
    const file = files.find((f) => path.basename(f).startsWith(stamp));
    if (!file) throw new Error(`no snapshot at ${stamp}`);
    return file;
  }

  it("parses every snapshot into valid incidents, and the 0-byte file as a failed fetch", async () => {
    let empty = 0;
    for (const file of files) {
      if (fs.statSync(file).size === 0) {
        expect((await snapshotRejection(parseSnapshot(file))).kind).toBe("empty");
        empty += 1;
        continue;
      }
      const incidents = await parseSnapshot(file);
      for (const incident of incidents) expect(incidentSchema.safeParse(incident).error).toBeUndefined();
    }
    expect(empty).toBe(1);
  });

  it("dates the 7 Dec 2021 console update at 4:25 PM PST on 8 Dec UTC", async () => {
    // Raw: date 1638894176 (08:22:56 PST, 7 Dec); divs " 8:22 AM PST", " 8:26 AM PST", " 4:25 PM PST".
    const console = findIncident(await parseSnapshot(snapshotAt("20211208T003251Z")), "1638894176-management-console");
    expect(console.updates.map((u) => u.createdAt)).toEqual([
      "2021-12-07T16:22:00.000Z",
      "2021-12-07T16:26:00.000Z",
      "2021-12-08T00:25:00.000Z",
    ]);
  });

  it("places every update of the 7 Dec us-east-1 events in order within two days of their start", async () => {
    const incidents = await parseSnapshot(snapshotAt("20211210T234752Z"));
    const outage = incidents.filter((i) => i.startedAt?.startsWith("2021-12-07") && /N\. Virginia|management-console|support/i.test(`${i.components[0]?.name} ${i.id}`));
    expect(outage.length).toBeGreaterThanOrEqual(8);
    for (const incident of outage) {
      const times = incident.updates.map((u) => Date.parse(u.createdAt ?? ""));
      const start = Date.parse(incident.startedAt ?? "");
      expect(times, incident.id).toEqual([...times].sort((a, b) => a - b));
      expect(Math.min(...times) - start, incident.id).toBeGreaterThan(-3_600_000);
      expect(Math.max(...times) - start, incident.id).toBeLessThan(2 * 86_400_000);
    }
  });

  it("keeps the EventBridge update id when its typo was fixed at 20211208T025208Z", async () => {
    const [before, after] = pairAt("20211208T025208Z");
    const old = findIncident(await parseSnapshot(before), "1638917670-events-us-east-1").updates;
    const now = findIncident(await parseSnapshot(after), "1638917670-events-us-east-1").updates;
    expect(now.map((u) => u.id)).toEqual(old.map((u) => u.id));
    const fixed = now.find((u) => u.id === "~20211208T020000Z");
    expect(old.find((u) => u.id === fixed?.id)?.body).toContain("latency for new events is in the US-EAST-1");
    expect(fixed?.body).toContain("latency for new events in the US-EAST-1");
  });

  it("turns the [RESOLVED] prefix added at 20211222T112536Z into status resolved with an unchanged title", async () => {
    const [before, after] = pairAt("20211222T112536Z");
    const old = findIncident(await parseSnapshot(before), "1640158400-elasticbeanstalk-us-east-1");
    const now = findIncident(await parseSnapshot(after), "1640158400-elasticbeanstalk-us-east-1");
    expect(old).toMatchObject({ title: "Console Application Upload Errors", status: "informational", resolvedAt: null });
    expect(now).toMatchObject({ title: "Console Application Upload Errors", status: "resolved", resolvedAt: null });
  });
});
