import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { ParsedSnapshot } from "@/lib/derive/observation";
import { incidentSchema, type Incident } from "@/lib/incident";
import type { ParseContext } from "@/scrapers/platforms/platform";
import { statuspageIncidentPagePlatform } from "@/scrapers/platforms/statuspage-incident-page";
import { corpusPath, describeCorpus } from "@/tests/support/corpus";
import { snapshotRejection, parseIncidents } from "@/tests/support/parsing";
import { statedKeys } from "@/tests/simulator/carried";

const FIXTURES = path.join(__dirname, "..", "..", "fixtures", "statuspage-incident-page");
const ctx: ParseContext = { vendor: "example", source: "https://status.example-sp.test/incidents/pm0modern001", observedAt: "2025-05-10T00:00:00.000Z" };

function parse(file: string, context: ParseContext = ctx): Promise<Incident[]> {
  return parseIncidents(statuspageIncidentPagePlatform, fs.readFileSync(file), context);
}

function parseText(html: string, context: ParseContext = ctx): Promise<Incident[]> {
  return parseIncidents(statuspageIncidentPagePlatform, new TextEncoder().encode(html), context);
}

function read(html: string, context: ParseContext = ctx): Promise<ParsedSnapshot> {
  return statuspageIncidentPagePlatform.parse(new TextEncoder().encode(html), context);
}

const MODERN = path.join(FIXTURES, "incident-page-postmortem-handwritten.html");
const OLD = path.join(FIXTURES, "incident-page-postmortem-old-layout-handwritten.html");

describe("statuspage incident page", () => {
  it("reads the postmortem row as Markdown with its publication time from data-datetime-unix", async () => {
    const [incident] = await parse(MODERN);
    expect(incident).toMatchObject({ id: "pm0modern001", title: "Checkout errors", url: "https://status.example-sp.test/incidents/pm0modern001" });
    expect(incident?.postmortem).toEqual({
      body: [
        "##### Issue",
        "At 12:02 **UTC** a *bad* deploy of `checkout-api` broke payments. See [our write-up](https://example-sp.test/blog/checkout) and not this.",
        "##### Follow-up",
        "- Canary deploys\n- Alert on `5xx` rate",
        "```\nrollback --to v41\n```",
        "Text that mentions \\<script\\> stays text.",
      ].join("\n\n"),
      publishedAt: "2025-05-09T13:07:00.000Z",
    });
    expect(incidentSchema.safeParse(incident).success).toBe(true);
  });

  it("lets no markup of the postmortem survive", async () => {
    const [incident] = await parse(MODERN);
    expect(incident?.postmortem?.body).not.toMatch(/(?<!\\)<[a-z/!]|document\.cookie|evil\.test|javascript:/i);
  });

  it("reads the older layout: og:url over http, a plain-text body and a Posted time in EST", async () => {
    const [incident] = await parse(OLD, { ...ctx, source: "incident.html" });
    expect(incident).toMatchObject({ id: "pm0oldlayout1", title: "Spaces issue", url: "http://status.example-old.test/incidents/pm0oldlayout1" });
    expect(incident?.postmortem).toEqual({
      body: "Root cause: a full disk on one storage node.\n\\- We added disk alerts.\n\nWe apologise.",
      publishedAt: "2020-01-03T14:15:00.000Z",
    });
  });

  it("adds only the postmortem, rendered from the page, to incidents another source lists, one page at a time", () => {
    expect(statedKeys(statuspageIncidentPagePlatform)).toEqual(["postmortem"]);
    expect(statuspageIncidentPagePlatform.profile).toMatchObject({ createsIncidents: false, presence: { kind: "single" }, fields: { postmortem: "rendered" } });
  });

  it("rejects a page that is not an incident page, naming what is missing", async () => {
    const error = await snapshotRejection(parseText("<html><body><h1>All Systems Operational</h1></body></html>"));
    expect(error.kind).toBe("schema");
    expect(error.message).toContain("invalid at incidentPage: not a Statuspage incident page");
  });

  it("reads the page as its one incident, at the root of the payload", async () => {
    const snapshot = await read(fs.readFileSync(MODERN, "utf8"));
    expect(snapshot.observations.map((o) => [o.path, o.incident.id, o.unstated])).toEqual([["(root)", "pm0modern001", []]]);
    expect(snapshot.warnings).toEqual([]);
  });

  it("reads another incident's page served for the requested one as an incident it cannot key, naming the path", async () => {
    const snapshot = await read(fs.readFileSync(MODERN, "utf8"), { ...ctx, source: "https://status.example-sp.test/incidents/other0000001" });
    expect(snapshot.warnings).toEqual([{ path: "canonical", message: "the page is incident pm0modern001, not other0000001" }]);
    expect(snapshot.unread).toEqual([{ id: null, path: "(root)" }]);
    expect(snapshot.observations).toEqual([]);
  });

  it("reads a page whose address names no incident as an incident it cannot key", async () => {
    const html = fs.readFileSync(OLD, "utf8").replace('content="http://status.example-old.test/incidents/pm0oldlayout1"', 'content="http://status.example-old.test/"');
    const snapshot = await read(html, { ...ctx, source: "incident.html" });
    expect(snapshot.warnings).toEqual([{ path: "canonical", message: "no /incidents/<id> in the canonical link, og:url or source" }]);
    expect(snapshot.unread).toEqual([{ id: null, path: "(root)" }]);
  });

  it("states no postmortem when its time is not epoch milliseconds, naming the path, and still reads the page", async () => {
    const html = fs.readFileSync(MODERN, "utf8").replace('data-datetime-unix="1746796020000"', 'data-datetime-unix="soon"');
    const snapshot = await read(html);
    expect(snapshot.warnings).toEqual([{ path: "postmortem.unix", message: 'not epoch milliseconds: "soon"' }]);
    expect(snapshot.observations[0]).toMatchObject({ unstated: ["postmortem"], incident: { id: "pm0modern001", title: "Checkout errors" } });
  });

  it("states no postmortem when its time is past year 9999, naming the path", async () => {
    for (const unix of ["300000000000000", "8640000000000001"]) {
      const html = fs.readFileSync(MODERN, "utf8").replace('data-datetime-unix="1746796020000"', `data-datetime-unix="${unix}"`);
      const snapshot = await read(html);
      expect(snapshot.warnings).toEqual([expect.objectContaining({ path: "postmortem.unix", message: expect.stringContaining("time out of range") })]);
      expect(snapshot.observations[0]?.unstated).toEqual(["postmortem"]);
    }
  });

  it("states no postmortem when its Posted time is unreadable, naming the path", async () => {
    const html = fs.readFileSync(OLD, "utf8").replace('<var data-var="time">09:15</var> EST', '<var data-var="time">09:15</var> XYZT');
    const snapshot = await read(html, { ...ctx, source: "incident.html" });
    expect(snapshot.warnings.map((w) => w.path)).toEqual(["postmortem.posted"]);
    expect(snapshot.observations[0]).toMatchObject({ unstated: ["postmortem"], incident: { id: "pm0oldlayout1" } });
  });

  it("rejects a page nested 10,000 elements deep as invalid instead of overflowing the stack", async () => {
    const html = fs.readFileSync(MODERN, "utf8").replace("<h5>Issue</h5>", `${"<div>".repeat(10_000)}x${"</div>".repeat(10_000)}`);
    const error = await snapshotRejection(parseText(html));
    expect(error.kind).toBe("schema");
    expect(error.message).toContain("invalid at (root): elements nest deeper than 1000 levels");
  });

  it("still reads a postmortem nested just under the depth limit", async () => {
    const html = fs.readFileSync(MODERN, "utf8").replace("<h5>Issue</h5>", `${"<div>".repeat(980)}deep${"</div>".repeat(980)}`);
    const [incident] = await parseText(html);
    expect(incident?.postmortem?.body).toMatch(/^deep\n\nAt 12:02 /);
  });

  it("treats an empty body as a failed fetch", async () => {
    expect((await snapshotRejection(parseText(""))).kind).toBe("empty");
  });
});

describeCorpus("statuspage incident pages without a postmortem", () => {
  it("reads GOV.UK Notify's page as its incident with the postmortem absent", async () => {
    const file = corpusPath("samples", "statuspage-incident-html", "govuk-notify-alphagov-statuspage-customisations.html");
    const [incident] = await parse(file, { ...ctx, source: path.basename(file) });
    expect(incident).toMatchObject({ id: "2wryjrq3v9mt", title: "Errors when attempting csv uploads", postmortem: null });
  });

  it("reads DigitalOcean's 2020 page by its og:url with the postmortem absent", async () => {
    const file = corpusPath("samples", "statuspage-incident-html", "digitalocean-d0glfj89j57y-2020-01-ruzyysmartt.DERIVED-decoded-from-mhtml.html");
    const [incident] = await parse(file, { ...ctx, source: "https://status.digitalocean.com/incidents/d0glfj89j57y" });
    expect(incident).toMatchObject({ id: "d0glfj89j57y", title: "Spaces issue in SGP1 region", postmortem: null });
    expect(incidentSchema.safeParse(incident).success).toBe(true);
  });
});
