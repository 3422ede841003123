/**
 * A Statuspage incident page, `<page>/incidents/<id>`: read for its postmortem only, which the public
 * JSON API omits and which "will show on the incident details page" (https://doers.statuspage.io/api/v1/postmortems/). The page lists its updates as `div.row.update-row` (title, `.update-body`, "Posted …"
 * timestamp) under `div.incident-updates-container`, a published postmortem first, as a row titled
 * "Postmortem" where the page says `<!-- postmortem if it's published -->`. A page of that incident
 * without that row says the postmortem is gone.
 */
import { wholeSnapshot } from "@/lib/derive/observation";
import { statingOnly } from "@/lib/derive/source-profile";
import { DomUtils, parseDocument } from "htmlparser2";
import { z } from "zod";
import { htmlToMarkdown } from "@/lib/html-to-markdown";
import type { Incident, Postmortem } from "@/lib/incident";
import { formatUtc, TimestampError, toUtcIso, zoneAbbreviationOffset } from "@/lib/time";
import { decodeText, parseWithSchema, type ParseContext, type Platform, SnapshotError } from "@/scrapers/platforms/platform";

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

function postedAt(stamp: string, ctx: z.RefinementCtx): string | null {
  const m = POSTED_AT.exec(stamp);
  const month = m ? MONTHS.indexOf((m[1] ?? "").toLowerCase()) + 1 : 0;
  const minutes = zoneAbbreviationOffset(m?.[6] ?? "UTC");
  if (m && month > 0 && minutes !== null) {
    const abs = Math.abs(minutes);
    const offset = `${minutes < 0 ? "-" : "+"}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
    const local = `${m[3]}-${String(month).padStart(2, "0")}-${(m[2] ?? "").padStart(2, "0")}T${(m[4] ?? "").padStart(2, "0")}:${m[5]}:00`;
    try {
      return toUtcIso(local + offset);
    } catch (error) {
      if (!(error instanceof TimestampError)) throw error;
    }
  }
  ctx.addIssue({ code: "custom", message: `unreadable postmortem time ${JSON.stringify(stamp.trim().slice(0, 80))}`, path: ["postmortem", "posted"] });
  return null;
}

function unixAt(unix: string, ctx: z.RefinementCtx): string | null {
  try {
    return formatUtc(Number(unix));
  } catch (error) {
    if (!(error instanceof TimestampError)) throw error;
    ctx.addIssue({ code: "custom", message: error.message, path: ["postmortem", "unix"] });
    return null;
  }
}

const pageSchema = z
  .object({
    incidentPage: z.boolean().refine((v) => v, "not a Statuspage incident page (no div.layout-content.status-incident with div.incident-updates-container)"),
    canonical: z.string().nullable(),
    ogUrl: z.string().nullable(),
    source: z.string(),
    title: z.string(),
    postmortem: z.object({ html: z.string(), unix: z.string().nullable(), posted: z.string() }).nullable(),
  })
  .transform((page, ctx) => {
    const pageId = incidentIdIn(page.canonical) ?? incidentIdIn(page.ogUrl);
    const sourceId = incidentIdIn(page.source);
    if (pageId !== null && sourceId !== null && pageId !== sourceId) {
      ctx.addIssue({ code: "custom", message: `the page is incident ${pageId}, not ${sourceId}`, path: ["canonical"] });
      return z.NEVER;
    }
    const id = pageId ?? sourceId;
    if (id === null) {
      ctx.addIssue({ code: "custom", message: "no /incidents/<id> in the canonical link, og:url or source", path: ["canonical"] });
      return z.NEVER;
    }
    let postmortem: Postmortem | null = null;
    const raw = page.postmortem;
    const body = raw ? htmlToMarkdown(raw.html) : "";
    if (raw && body !== "") {
      const unix = raw.unix?.trim() ?? "";
      if (unix !== "" && !/^\d+$/.test(unix)) {
        ctx.addIssue({ code: "custom", message: `not epoch milliseconds: ${JSON.stringify(unix.slice(0, 32))}`, path: ["postmortem", "unix"] });
        return z.NEVER;
      }
      const publishedAt = unix !== "" ? unixAt(unix, ctx) : raw.posted.trim() === "" ? null : postedAt(raw.posted, ctx);
      postmortem = { body, publishedAt };
    }
    return { id, url: page.canonical ?? page.ogUrl, title: page.title, postmortem };
  });

function depthOf(doc: DomDocument): number {
  let deepest = 0;
  const pending = doc.children.map((node) => ({ node, depth: 1 }));
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    deepest = Math.max(deepest, next.depth);
    if (DomUtils.hasChildren(next.node)) for (const node of next.node.children) pending.push({ node, depth: next.depth + 1 });
  }
  return deepest;
}

/** What the page says, before validation: where it claims to be, and its postmortem row if any. */
function readPage(doc: DomDocument, source: string): z.input<typeof pageSchema> {
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
    source,
    title: title.replace(/\s+/g, " ").trim(),
    postmortem: body ? { html: bodyHtml(body), unix: ago?.attribs["data-datetime-unix"] ?? null, posted: stamp ? DomUtils.textContent(stamp) : "" } : null,
  };
}

export function parseStatuspageIncidentPage(body: Uint8Array, ctx: ParseContext): Incident[] {
  const doc = parseDocument(decodeText(body, ctx));
  if (depthOf(doc) > MAX_DEPTH) {
    throw new SnapshotError("schema", `${ctx.vendor}: snapshot from ${ctx.source} is invalid at (root): elements nest deeper than ${MAX_DEPTH} levels`);
  }
  const page = parseWithSchema(pageSchema, readPage(doc, ctx.source), ctx);
  return [
    {
      vendor: ctx.vendor,
      id: page.id,
      kind: "incident",
      title: page.title,
      status: null,
      impact: null,
      url: page.url,
      startedAt: null,
      resolvedAt: null,
      scheduledFor: null,
      scheduledUntil: null,
      components: [],
      updates: [],
      postmortem: page.postmortem,
    },
  ];
}

export const statuspageIncidentPagePlatform: Platform = {
  name: "statuspage-incident-page",
  description: "Atlassian Statuspage incident page (HTML): its postmortem, for incidents another source lists",
  profile: statingOnly({ kind: "single" }, ["postmortem"], null, false),
  parserVersion: 1,
  async parse(body, ctx) {
    return wholeSnapshot(parseStatuspageIncidentPage(body, ctx));
  },
};
