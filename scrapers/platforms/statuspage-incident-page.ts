/**
 * A Statuspage incident page, `<page>/incidents/<id>`: read for its postmortem only, which the public
 * JSON API omits and which "will show on the incident details page" (https://doers.statuspage.io/api/v1/postmortems/). The page lists its updates as `div.row.update-row` (title, `.update-body`, "Posted …"
 * timestamp) under `div.incident-updates-container`, a published postmortem first, as a row titled
 * "Postmortem" where the page says `<!-- postmortem if it's published -->`. A page of that incident
 * without that row says the postmortem is gone. Warnings name the parts of the page as `canonical`
 * (its address) and `postmortem.unix` or `postmortem.posted` (the postmortem's time).
 */
import type { ParsedSnapshot } from "@/lib/derive/observation";
import { DomUtils, parseDocument } from "htmlparser2";
import { z } from "zod";
import { htmlToMarkdown } from "@/lib/html-to-markdown";
import type { Postmortem } from "@/lib/incident";
import { PLATFORM_PROFILES } from "@/lib/platform-profiles";
import { formatUtc, TimestampError, toUtcIso, zoneAbbreviationOffset } from "@/lib/time";
import { decodeText, parseWithSchema, type ParseContext, type Platform, SnapshotError } from "@/scrapers/platforms/platform";
import { SnapshotReader } from "@/scrapers/platforms/snapshot-reader";

type DomElement = NonNullable<ReturnType<typeof DomUtils.findOne>>;
type DomDocument = ReturnType<typeof parseDocument>;

/** Far deeper than any real page; the DOM helpers recurse once per level and would overflow the stack. */
const MAX_DEPTH = 1_000;

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const POSTED_AT = /\b([a-z]{3})[a-z]*\.?\s+(\d{1,2}),\s*(\d{4})\s*-\s*(\d{1,2}):(\d{2})\s*([a-z]{1,5}(?:[+-]\d{1,2}(?::?\d{2})?)?)?/i;

function hasClass(element: DomElement, name: string): boolean {
  return (element.attribs.class ?? "").split(/\s+/).includes(name);
}

function findByClass(nodes: DomElement["children"], ...names: string[]): DomElement | null {
  return DomUtils.findOne((e) => names.every((n) => hasClass(e, n)), nodes);
}

function incidentIdIn(url: string | null): string | null {
  return url ? (/\/incidents\/([A-Za-z0-9]+)(?:[/?#]|$)/.exec(url)?.[1] ?? null) : null;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** A `whitespace-pre-wrap` body is plain text whose line breaks matter; anything else is rendered Markdown. */
function bodyHtml(body: DomElement): string {
  const preWrap = findByClass(body.children, "whitespace-pre-wrap");
  const blocks = DomUtils.findOne((e) => /^(?:p|h[1-6]|ul|ol|pre|blockquote|table)$/.test(e.name), body.children);
  if (preWrap && !blocks) return escapeHtml(DomUtils.textContent(preWrap)).replace(/\n/g, "<br>");
  return DomUtils.getInnerHTML(body);
}

/** The "Posted …" time as ISO UTC, or null when it cannot be read. */
function postedAt(stamp: string): string | null {
  const m = POSTED_AT.exec(stamp);
  const month = m ? MONTHS.indexOf((m[1] ?? "").toLowerCase()) + 1 : 0;
  const minutes = zoneAbbreviationOffset(m?.[6] ?? "UTC");
  if (!m || month === 0 || minutes === null) return null;
  const abs = Math.abs(minutes);
  const offset = `${minutes < 0 ? "-" : "+"}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
  const local = `${m[3]}-${String(month).padStart(2, "0")}-${(m[2] ?? "").padStart(2, "0")}T${(m[4] ?? "").padStart(2, "0")}:${m[5]}:00`;
  try {
    return toUtcIso(local + offset);
  } catch (error) {
    if (!(error instanceof TimestampError)) throw error;
    return null;
  }
}

/** What readPage finds: where the page claims to be, its title, and its postmortem row if any. */
interface PageContents {
  canonical: string | null;
  ogUrl: string | null;
  title: string;
  postmortem: { html: string; unix: string | null; posted: string } | null;
}

const pageSchema = z.object({
  incidentPage: z.boolean().refine((v) => v, "not a Statuspage incident page (no div.layout-content.status-incident with div.incident-updates-container)"),
});

/** The incident the page is, or null (with a warning) when its address names none, or another than the one requested. */
function pageIncidentId(reader: SnapshotReader, page: PageContents, source: string): string | null {
  const pageId = incidentIdIn(page.canonical) ?? incidentIdIn(page.ogUrl);
  const sourceId = incidentIdIn(source);
  if (pageId !== null && sourceId !== null && pageId !== sourceId) {
    reader.warn("canonical", `the page is incident ${pageId}, not ${sourceId}`);
    return null;
  }
  const id = pageId ?? sourceId;
  if (id === null) reader.warn("canonical", "no /incidents/<id> in the canonical link, og:url or source");
  return id;
}

/** The postmortem row as a postmortem; undefined (with a warning) when its time cannot be read. */
function readPostmortem(reader: SnapshotReader, raw: PageContents["postmortem"]): Postmortem | null | undefined {
  const body = raw ? htmlToMarkdown(raw.html) : "";
  if (!raw || body === "") return null;
  const unix = raw.unix?.trim() ?? "";
  if (unix !== "") {
    if (!/^\d+$/.test(unix)) {
      reader.warn("postmortem.unix", `not epoch milliseconds: ${JSON.stringify(unix.slice(0, 32))}`);
      return undefined;
    }
    try {
      return { body, publishedAt: formatUtc(Number(unix)) };
    } catch (error) {
      if (!(error instanceof TimestampError)) throw error;
      reader.warn("postmortem.unix", error.message);
      return undefined;
    }
  }
  if (raw.posted.trim() === "") return { body, publishedAt: null };
  const publishedAt = postedAt(raw.posted);
  if (publishedAt !== null) return { body, publishedAt };
  reader.warn("postmortem.posted", `unreadable postmortem time ${JSON.stringify(raw.posted.trim().slice(0, 80))}`);
  return undefined;
}

function depthOf(doc: DomDocument): number {
  let deepest = 0;
  const pending = doc.children.map((node) => ({ node, depth: 1 }));
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    deepest = Math.max(deepest, next.depth);
    if (DomUtils.hasChildren(next.node)) for (const node of next.node.children) pending.push({ node, depth: next.depth + 1 });
  }
  return deepest;
}

/** What the page says, before validation, and whether it is an incident page at all. */
function readPage(doc: DomDocument): PageContents & { incidentPage: boolean } {
  const layout = findByClass(doc.children, "layout-content", "status-incident");
  const container = layout ? findByClass(layout.children, "incident-updates-container") : null;
  const meta = (test: (e: DomElement) => boolean, attr: string) => DomUtils.findOne(test, doc.children)?.attribs[attr]?.trim() || null;
  const canonical = meta((e) => e.name === "link" && (e.attribs.rel ?? "").split(/\s+/).includes("canonical"), "href");
  const ogUrl = meta((e) => e.name === "meta" && e.attribs.property === "og:url", "content");
  const nameElement = layout ? findByClass(layout.children, "incident-name") : null;
  const title = nameElement ? DomUtils.textContent(nameElement) : (meta((e) => e.name === "meta" && e.attribs.property === "og:title", "content") ?? "");
  const rows = container ? DomUtils.findAll((e) => hasClass(e, "update-row"), container.children) : [];
  const row = rows.find((r) => {
    const heading = findByClass(r.children, "update-title");
    return hasClass(r, "postmortem") || (heading !== null && DomUtils.textContent(heading).trim().toLowerCase() === "postmortem");
  });
  const body = row ? findByClass(row.children, "update-body") : null;
  const stamp = row ? findByClass(row.children, "update-timestamp") : null;
  const ago = stamp ? DomUtils.findOne((e) => e.attribs["data-datetime-unix"] !== undefined, stamp.children) : null;
  return {
    incidentPage: container !== null,
    canonical,
    ogUrl,
    title: title.replace(/\s+/g, " ").trim(),
    postmortem: body ? { html: bodyHtml(body), unix: ago?.attribs["data-datetime-unix"] ?? null, posted: stamp ? DomUtils.textContent(stamp) : "" } : null,
  };
}

function parseStatuspageIncidentPage(body: Uint8Array, ctx: ParseContext): ParsedSnapshot {
  const doc = parseDocument(decodeText(body, ctx));
  if (depthOf(doc) > MAX_DEPTH) {
    throw new SnapshotError("schema", `${ctx.vendor}: snapshot from ${ctx.source} is invalid at (root): elements nest deeper than ${MAX_DEPTH} levels`);
  }
  const page = readPage(doc);
  parseWithSchema(pageSchema, page, ctx);
  const reader = new SnapshotReader(ctx);
  const id = pageIncidentId(reader, page, ctx.source);
  if (id === null) {
    reader.unreadIncident(null, "(root)");
    return reader.snapshot();
  }
  const postmortem = readPostmortem(reader, page.postmortem);
  reader.observe({
    incident: {
      vendor: ctx.vendor,
      id,
      kind: "incident",
      title: page.title,
      status: null,
      impact: null,
      url: page.canonical ?? page.ogUrl,
      startedAt: null,
      resolvedAt: null,
      scheduledFor: null,
      scheduledUntil: null,
      components: [],
      updates: [],
      postmortem: postmortem ?? null,
    },
    path: "(root)",
    unstated: postmortem === undefined ? ["postmortem"] : [],
    partialUpdates: false,
  });
  return reader.snapshot();
}

export const statuspageIncidentPagePlatform: Platform = {
  name: "statuspage-incident-page",
  description: "Atlassian Statuspage incident page (HTML): its postmortem, for incidents another source lists",
  profile: PLATFORM_PROFILES["statuspage-incident-page"],
  parserVersion: 1,
  async parse(body, ctx) {
    return parseStatuspageIncidentPage(body, ctx);
  },
};
