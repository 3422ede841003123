/**
 * Reading RSS 2.0 and Atom documents (https://www.rssboard.org/rss-specification, RFC 4287) for
 * every adapter whose vendor publishes a feed: rss-parser for the XML, then one validated item shape.
 */
import Parser from "rss-parser";
import { z } from "zod";
import { toUtcIso, zoneAbbreviationOffset } from "@/lib/time";
import { decodeText, parseWithSchema, SnapshotError, type ParseContext, utcTimestampField } from "@/scrapers/platforms/platform";

export const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const RFC822 = /^(?:[a-z]{3},?\s*)?(\d{1,2})\s+([a-z]{3})[a-z]*\.?\s+(\d{2}|\d{4})\s+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*(\S*)$/i;

export function pad(n: number): string {
  return String(n).padStart(2, "0");
}

function zoneOffset(zone: string): string | null {
  if (/^[+-]\d{2}:?\d{2}$/.test(zone)) return zone;
  const minutes = zone.toUpperCase() === "UT" ? 0 : zoneAbbreviationOffset(zone);
  if (minutes === null) return null;
  const abs = Math.abs(minutes);
  return `${minutes < 0 ? "-" : "+"}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** "Mon, 17 Aug 2026 21:01:19 PDT", "Thu, 23 Jul 2026 16:29:09 Z" (Azure) or, off-spec, ISO-8601. */
export function rfc822ToIso(value: string): string | null {
  const m = RFC822.exec(value.trim());
  const month = m ? MONTHS.indexOf((m[2] ?? "").toLowerCase()) + 1 : 0;
  const offset = m ? zoneOffset(m[7] ?? "") : null;
  try {
    if (!m || month === 0 || offset === null) return toUtcIso(value);
    const year = (m[3] ?? "").length === 2 ? 2000 + Number(m[3]) - (Number(m[3]) >= 50 ? 100 : 0) : Number(m[3]);
    return toUtcIso(`${year}-${pad(month)}-${pad(Number(m[1]))}T${pad(Number(m[4]))}:${m[5]}:${m[6] ?? "00"}${offset}`);
  } catch {
    return null;
  }
}

const blankToUndefined = (value: unknown) => (typeof value === "string" && value.trim() === "" ? undefined : value);

export const rfc822Field = z.string().transform((value, ctx) => {
  const iso = rfc822ToIso(value);
  if (iso !== null) return iso;
  ctx.addIssue({ code: "custom", message: `not an RFC 822 date: ${JSON.stringify(value.slice(0, 64))}` });
  return z.NEVER;
});

/** Feed text is a string, or xml2js's {_: text, $: attributes} when the element has attributes. */
const textField = z.unknown().optional().transform((value): string | null => {
  const text = typeof value === "object" && value !== null && "_" in value ? value._ : value;
  return typeof text === "string" && text.trim() !== "" ? text.trim() : null;
});

const feedItemSchema = z
  .object({
    title: textField,
    link: textField,
    guid: textField,
    id: textField,
    pubDate: z.preprocess(blankToUndefined, rfc822Field.optional()),
    date: z.preprocess(blankToUndefined, utcTimestampField.optional()),
    published: z.preprocess(blankToUndefined, utcTimestampField.optional()),
    updated: z.preprocess(blankToUndefined, utcTimestampField.optional()),
    "content:encoded": textField,
    content: textField,
    summary: textField,
    categories: z.array(textField).optional(),
  })
  .transform((raw) => ({
    title: raw.title,
    link: raw.link,
    guid: raw.guid,
    id: raw.id,
    published: raw.published ?? raw.pubDate ?? raw.date ?? null,
    updated: raw.updated ?? null,
    html: raw["content:encoded"] ?? raw.content ?? raw.summary ?? "",
    categories: (raw.categories ?? []).filter((c): c is string => c !== null),
  }));
export type FeedItem = z.infer<typeof feedItemSchema>;

const feedSchema = z.object({ items: z.array(feedItemSchema) });

// rss-parser runs Atom dates through `new Date(x).toISOString()`, which throws on garbage;
// renamed, they reach the schema raw and a bad one fails at its path.
const RAW_DATE_TAGS: Record<string, string> = { published: "redline-published", updated: "redline-updated" };

/** An RSS or Atom snapshot as rss-parser reads it, Atom dates left raw; bytes that are no feed are a failed fetch. */
export async function parseFeedDocument(body: Uint8Array, ctx: ParseContext): Promise<unknown> {
  const text = decodeText(body, ctx);
  const parser = new Parser({
    xml2js: { tagNameProcessors: [(name: string) => RAW_DATE_TAGS[name] ?? name] },
    customFields: { item: [["redline-published", "published"], ["redline-updated", "updated"]] },
  });
  try {
    return await parser.parseString(text);
  } catch (error) {
    const why = error instanceof Error ? error.message.split("\n")[0] : String(error);
    const message = `${ctx.vendor}: snapshot from ${ctx.source} is not an RSS or Atom feed: ${why}`;
    throw new SnapshotError("unparseable", message, { cause: error });
  }
}

/** The items of an RSS or Atom snapshot, validated. */
export async function readFeedItems(body: Uint8Array, ctx: ParseContext): Promise<FeedItem[]> {
  return parseWithSchema(feedSchema, await parseFeedDocument(body, ctx), ctx).items;
}

/** The item's own time: when it was published, else when it was last updated. */
export function feedItemTime(item: FeedItem): string | null {
  return item.published ?? item.updated;
}

/** A schema error at one feed item, worded like parseWithSchema's. */
export function invalidFeedItem(ctx: ParseContext, path: string, why: string): SnapshotError {
  return new SnapshotError("schema", `${ctx.vendor}: snapshot from ${ctx.source} is invalid at ${path}: ${why}`);
}
