import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { incidentSchema, type Incident } from "@/lib/incident";
import { SnapshotError, type ParseContext, type Platform } from "@/scrapers/platforms/platform";
import { statuspageAtomPlatform, statuspageRssPlatform } from "@/scrapers/platforms/statuspage-feed";
import { corpusPath, corpusSnapshots, describeCorpus, observedAtOf } from "@/tests/support/corpus";
import { snapshotRejection, parseIncidents } from "@/tests/support/parsing";

const FIXTURES = path.join(__dirname, "..", "..", "fixtures", "statuspage");
const ctx: ParseContext = { vendor: "example", source: "history.atom", observedAt: "2024-03-13T00:00:00.000Z" };

function fixture(name: string): Uint8Array {
  return fs.readFileSync(path.join(FIXTURES, name));
}

function only(incidents: Incident[], id: string): Incident {
  const found = incidents.find((i) => i.id === id);
  if (!found) throw new Error(`no incident ${id} among ${incidents.map((i) => i.id).join(", ")}`);
  return found;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** One Atom entry; `updates` are [month day, hh:mm zone, status, body] newest first, as Statuspage lists them. */
function atomFeed(updates: Array<[string, string, string, string]>, published = "2024-05-02T10:00:00Z"): Uint8Array {
  const html = updates
    .map(([date, time, status, body]) => {
      const [month, day] = date.split(" ");
      const [clock, zone] = time.split(" ");
      const small = `${month} <var data-var='date'>${day}</var>, <var data-var='time'>${clock}</var> ${zone}`;
      return `<p><small>${small}</small><br><strong>${status}</strong> - ${body}</p>`;
    })
    .join("");
  return new TextEncoder().encode(
    `<?xml version="1.0" encoding="UTF-8"?><feed xmlns="http://www.w3.org/2005/Atom"><entry>` +
      `<id>tag:status.example.test,2005:Incident/1</id><published>${published}</published>` +
      `<link rel="alternate" type="text/html" href="https://status.example.test/incidents/built0entry1"/>` +
      `<title>Built entry</title><content type="html">${escapeXml(html)}</content></entry></feed>`,
  );
}

async function parseFixtureEntry(id: string): Promise<Incident> {
  return only(await parseIncidents(statuspageAtomPlatform, fixture("history-postmortem-maintenance.atom"), ctx), id);
}

function parseError(platform: Platform, body: Uint8Array): Promise<SnapshotError> {
  return snapshotRejection(parseIncidents(platform, body, ctx));
}

describe("statuspage history feeds", () => {
  it("turns a Postmortem paragraph into the postmortem and keeps it out of the updates", async () => {
    const incident = await parseFixtureEntry("tls0chain001");
    expect(incident.status).toBe("postmortem");
    expect(incident.postmortem).toEqual({
      body: [
        "On March 11 a certificate rotation removed an intermediate certificate.",
        "We now verify the chain before rotating.",
      ].join("\n\n"),
      publishedAt: "2024-03-12T16:30:00.000Z",
    });
    expect(incident.updates.map((u) => u.status)).toEqual(["investigating", "identified", "resolved"]);
    expect(incident.resolvedAt).toBe("2024-03-12T00:40:00.000Z");
  });

  it("reads PDT update times as UTC-7 and takes the earliest as the start", async () => {
    const incident = await parseFixtureEntry("tls0chain001");
    expect(incident.startedAt).toBe("2024-03-11T23:20:00.000Z");
    expect(incident.updates.map((u) => u.displayAt)).toEqual([
      "2024-03-11T23:20:00.000Z",
      "2024-03-11T23:55:00.000Z",
      "2024-03-12T00:40:00.000Z",
    ]);
  });

  it("drops script content and markup from a hostile update body", async () => {
    const incident = await parseFixtureEntry("tls0chain001");
    const identified = incident.updates.find((u) => u.status === "identified");
    expect(identified?.body).toBe("A certificate chain is incomplete. Rolling back & re-issuing.");
  });

  it("marks an entry with maintenance statuses as maintenance and ignores the scheduled-event banner", async () => {
    const incident = await parseFixtureEntry("mnt0router01");
    expect(incident.kind).toBe("maintenance");
    expect(incident.impact).toBe("maintenance");
    expect(incident.status).toBe("scheduled");
    expect(incident.resolvedAt).toBeNull();
    expect(incident.updates).toHaveLength(1);
    expect(incident.updates[0]?.displayAt).toBe("2024-03-04T11:00:00.000Z");
    expect(incident.updates[0]?.body).toMatch(/^We will upgrade the edge routers/);
  });

  it("places December updates in the old year when the entry was published in January", async () => {
    const incident = await parseFixtureEntry("purge0newyr1");
    expect(incident.startedAt).toBe("2023-12-31T23:50:00.000Z");
    expect(incident.resolvedAt).toBe("2024-01-01T00:20:00.000Z");
    expect(incident.status).toBe("resolved");
  });

  it("numbers two same-minute updates oldest first so the earlier keeps its id", async () => {
    const incident = await parseFixtureEntry("purge0newyr1");
    const sameMinute = incident.updates.filter((u) => u.displayAt === "2023-12-31T23:58:00.000Z");
    expect(sameMinute.map((u) => u.body)).toEqual(["We are adding purge workers.", "Backlog is draining."]);
    expect(sameMinute[1]?.id).toBe(`${sameMinute[0]?.id}-2`);
  });

  it("keeps every earlier update id when a new update arrives in the same minute", async () => {
    const first: Array<[string, string, string, string]> = [
      ["May 2", "10:00 UTC", "Update", "Still looking."],
      ["May 2", "09:40 UTC", "Investigating", "Looking."],
    ];
    const second: Array<[string, string, string, string]> = [["May 2", "10:00 UTC", "Update", "Found it."], ...first];
    const [before] = await parseIncidents(statuspageAtomPlatform, atomFeed(first), ctx);
    const [after] = await parseIncidents(statuspageAtomPlatform, atomFeed(second, "2024-05-02T10:00:30Z"), ctx);
    const idsBefore = before?.updates.map((u) => u.id) ?? [];
    expect(after?.updates.slice(0, 2).map((u) => u.id)).toEqual(idsBefore);
    expect(after?.updates[2]?.body).toBe("Found it.");
    expect(new Set(after?.updates.map((u) => u.id)).size).toBe(3);
  });

  it("puts Feb 29 in the last leap year when the capture is in a common year", async () => {
    const body = atomFeed([["Feb 29", "12:00 UTC", "Resolved", "Done."]], "2025-03-01T00:00:00Z");
    const [incident] = await parseIncidents(statuspageAtomPlatform, body, { ...ctx, observedAt: "2025-03-01T06:00:00.000Z" });
    expect(incident?.resolvedAt).toBe("2024-02-29T12:00:00.000Z");
  });

  it("reads an RSS feed with &apos; escapes, EST times and no pubDate, taking the year from the capture", async () => {
    const incidents = await parseIncidents(statuspageRssPlatform, fixture("history-apos-no-pubdate.rss"), {
      ...ctx,
      observedAt: "2024-01-03T00:00:00.000Z",
    });
    const webhook = only(incidents, "hook0delay01");
    expect(webhook.updates.map((u) => [u.displayAt, u.status, u.body])).toEqual([
      ["2023-12-30T22:05:00.000Z", "investigating", "Deliveries are up to 20 minutes late."],
      ["2023-12-30T23:15:00.000Z", "monitoring", "We're watching the retry queue."],
    ]);
    const queue = only(incidents, "queue0mnt001");
    expect([queue.kind, queue.status]).toEqual(["maintenance", "in_progress"]);
    expect(queue.startedAt).toBe("2023-12-28T14:00:00.000Z");
    expect(queue.url).toBe("https://status.example-hooks.test/incidents/queue0mnt001");
  });

  it("skips an update whose time uses an unknown zone, naming it, and states nothing worked out from the updates", async () => {
    const read = await statuspageAtomPlatform.parse(atomFeed([["May 2", "10:00 XYZT", "Resolved", "Done."], ["May 2", "09:00 UTC", "Investigating", "Looking."]]), ctx);
    expect(read.warnings).toEqual([expect.objectContaining({ path: "items[0].content.updates[0]", message: expect.stringContaining('"XYZT"') })]);
    const [observation] = read.observations;
    expect(observation?.incident.updates.map((u) => u.body)).toEqual(["Looking."]);
    expect(observation?.partialUpdates).toBe(true);
    expect(observation?.unstated).toEqual(expect.arrayContaining(["status", "resolvedAt", "startedAt"]));
  });

  it("reads an entry whose date is not a timestamp from its other dates, naming the path", async () => {
    const read = await statuspageAtomPlatform.parse(atomFeed([["May 2", "10:00 UTC", "Resolved", "x"]], "last Tuesday"), ctx);
    expect(read.warnings.map((w) => w.path)).toEqual(["items[0].published"]);
    expect(read.observations).toHaveLength(1);
  });

  it("skips an update no year near its entry's date can hold, naming it", async () => {
    const read = await statuspageAtomPlatform.parse(atomFeed([["Dec 28", "10:00 UTC", "Resolved", "x"]], "0999-12-31T23:59:59Z"), ctx);
    expect(read.warnings).toEqual([expect.objectContaining({ path: "items[0].content.updates[0]", message: expect.stringContaining("no year fits 12/28") })]);
    expect(read.observations[0]?.incident.updates).toEqual([]);
  });

  it("states no updates for entry content that holds no update paragraphs, naming it", async () => {
    const description = "<description>&lt;div&gt;a new layout&lt;/div&gt;</description>";
    const item = `<title>t</title><link>https://s.test/incidents/abc</link>${description}`;
    const xml = `<rss version="2.0"><channel><item>${item}</item></channel></rss>`;
    const read = await statuspageRssPlatform.parse(new TextEncoder().encode(xml), ctx);
    expect(read.warnings.map((w) => w.path)).toEqual(["items[0].content"]);
    expect(read.observations[0]?.unstated).toEqual(expect.arrayContaining(["updates", "status"]));
    expect(read.observations[0]?.incident.title).toBe("t");
  });

  it("reads an entry without a key as an unreadable incident, never as one that vanished", async () => {
    const xml = `<rss version="2.0"><channel><item><title>no link</title><description>x</description></item></channel></rss>`;
    const read = await statuspageRssPlatform.parse(new TextEncoder().encode(xml), ctx);
    expect(read.observations).toEqual([]);
    expect(read.unread).toEqual([{ id: null, path: "items[0]" }]);
  });

  it("treats an empty body as a failed fetch and non-feed bytes as unparseable", async () => {
    expect((await parseError(statuspageAtomPlatform, new Uint8Array())).kind).toBe("empty");
    const json = new TextEncoder().encode(`{"incidents": []}`);
    expect((await parseError(statuspageRssPlatform, json)).kind).toBe("unparseable");
    const html = new TextEncoder().encode("<html><body>502</body></html>");
    expect((await parseError(statuspageAtomPlatform, html)).kind).toBe("unparseable");
  });
});

function snapshotContext(file: string, vendor: string, observedAt = observedAtOf(file)): ParseContext {
  return { vendor, source: path.basename(file), observedAt };
}

function expectValid(incidents: Incident[], file: string): void {
  for (const incident of incidents) {
    const checked = incidentSchema.safeParse(incident);
    expect(checked.success, `${path.basename(file)} ${incident.id}: ${checked.error?.message}`).toBe(true);
    expect(new Set(incident.updates.map((u) => u.id)).size, `${incident.id} has duplicate update ids`).toBe(
      incident.updates.length,
    );
  }
}

/** When the DigitalOcean sample feeds were saved (the commit that added them); their names carry no capture time. */
const SAVED_AT = "2020-01-23T00:00:00.000Z";

async function atomAt(stamp: string): Promise<Incident[]> {
  const file = corpusSnapshots("atom-github-history").find((f) => path.basename(f).startsWith(stamp));
  if (!file) throw new Error(`no atom snapshot ${stamp}`);
  return parseIncidents(statuspageAtomPlatform, fs.readFileSync(file), snapshotContext(file, "github"));
}

describeCorpus("statuspage history feeds on real snapshots", () => {
  it("parses every GitHub history.atom snapshot into 25 valid incidents", async () => {
    for (const file of corpusSnapshots("atom-github-history")) {
      const incidents = await parseIncidents(statuspageAtomPlatform, fs.readFileSync(file), snapshotContext(file, "github"));
      expect(incidents, path.basename(file)).toHaveLength(25);
      expectValid(incidents, file);
    }
  });

  it("keeps the id of entry 24836733's resolved update when its text becomes a root-cause summary", async () => {
    const before = only(await atomAt("20250502T"), "7r0jg1plygfm");
    const after = only(await atomAt("20250503T042906Z"), "7r0jg1plygfm");
    const resolvedBefore = before.updates.find((u) => u.status === "resolved");
    const resolvedAfter = after.updates.find((u) => u.status === "resolved");
    expect(resolvedBefore?.body).toBe("This incident has been resolved.");
    expect(resolvedAfter?.body).toMatch(/^On April 30, 2025, between 8:02 UTC and 9:05 UTC/);
    expect(resolvedAfter?.id).toBe(resolvedBefore?.id);
    expect(resolvedAfter?.displayAt).toBe("2025-04-30T21:05:00.000Z");
    expect(after.url).toBe("https://www.githubstatus.com/incidents/7r0jg1plygfm");
  });

  it("dates December entries in 2025 and January entries in 2026 in the 2026-01-02 capture", async () => {
    const incidents = await atomAt("20260102T");
    expect(only(incidents, "d5t56pdnjxhd").startedAt).toBe("2026-01-01T21:24:00.000Z");
    expect(only(incidents, "ccrzb3ms9j2d").resolvedAt).toBe("2025-12-23T10:32:00.000Z");
    expect(only(incidents, "d4775b3j5mwm").startedAt?.slice(0, 10)).toBe("2025-11-28");
  });

  it("parses DigitalOcean's 2020 history.rss with padded days and dates across the new year", async () => {
    const file = corpusPath("samples", "statuspage-history-rss", "digitalocean-2020-01-ruzyysmartt.rss");
    const context = snapshotContext(file, "digitalocean", SAVED_AT);
    const incidents = await parseIncidents(statuspageRssPlatform, fs.readFileSync(file), context);
    expect(incidents).toHaveLength(25);
    expectValid(incidents, file);
    expect(only(incidents, "yp7b8jv4wbjg").startedAt).toBe("2020-01-08T04:06:00.000Z");
    expect(only(incidents, "t9w8x953n4sd").startedAt).toBe("2019-12-26T21:32:00.000Z");
    const maintenance = only(incidents, "2yyk6j58xcxh");
    expect(maintenance.updates.map((u) => u.status)).toEqual(["scheduled", "in_progress", "verifying", "completed"]);
    expect([maintenance.kind, maintenance.status]).toEqual(["maintenance", "completed"]);
    expect(maintenance.resolvedAt).toBe("2020-01-11T11:57:00.000Z");
  });

  it("parses DigitalOcean's 2019 history.atom with its numeric entry ids", async () => {
    const file = corpusPath("samples", "statuspage-history-atom", "digitalocean-2020-01-ruzyysmartt.atom");
    const context = snapshotContext(file, "digitalocean", SAVED_AT);
    const incidents = await parseIncidents(statuspageAtomPlatform, fs.readFileSync(file), context);
    expect(incidents).toHaveLength(25);
    expectValid(incidents, file);
    const first = only(incidents, "w4j2nj1trtsg");
    expect(first.title).toBe("Event Processing Delays & Droplet Creates Issue");
    expect([first.startedAt, first.resolvedAt]).toEqual(["2019-10-29T15:05:00.000Z", "2019-10-30T23:05:00.000Z"]);
    expect(only(incidents, "g76kgjxqrzxs").startedAt).toBe("2019-09-30T21:25:00.000Z");
  });
});
