/**
 * Reading RSS 2.0 and Atom documents (https://www.rssboard.org/rss-specification, RFC 4287) for
 * every adapter whose vendor publishes a feed: rss-parser for the XML, then each item read on its own.
 */
import Parser from "rss-parser";
import { z } from "zod";
import { toUtcIso, zoneAbbreviationOffset } from "@/lib/time";
import { decodeText, parseWithSchema, SnapshotError, type ParseContext, utcTimestampField } from "@/scrapers/platforms/platform";
import { joinPath, type ReadObject, type SnapshotReader } from "@/scrapers/platforms/snapshot-reader";

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

const feedItemShape = {
  title: textField,
  link: textField,
  guid: textField,
  id: textField,
  published: z.preprocess(blankToUndefined, utcTimestampField.optional()),
  pubDate: z.preprocess(blankToUndefined, rfc822Field.optional()),
  date: z.preprocess(blankToUndefined, utcTimestampField.optional()),
  updated: z.preprocess(blankToUndefined, utcTimestampField.optional()),
  "content:encoded": textField,
  content: textField,
  summary: textField,
  categories: z.array(textField).optional(),
};

export interface FeedItem {
  title: string | null;
  link: string | null;
  guid: string | null;
  id: string | null;
  /** Atom's published, else RSS's pubDate, else Dublin Core's date. */
  published: string | null;
  updated: string | null;
  html: string;
  categories: string[];
}

/** One item as read, where it is in the payload, and which of its values could not be read (each with a warning). */
export interface ReadFeedItem {
  item: FeedItem;
  path: string;
  failed: ReadonlySet<"published" | "updated" | "categories">;
}

const feedSchema = z.object({ items: z.array(z.unknown()) });

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

/**
 * The first of several dates that is given; unreadable when one before it could not be read, since
 * that one would have been the item's date.
 */
function firstDate(read: ReadObject<typeof feedItemShape>, keys: ReadonlyArray<"published" | "pubDate" | "date" | "updated">): { at: string | null; failed: boolean } {
  for (const key of keys) {
    if (read.failed.has(key)) return { at: null, failed: true };
    const at = read.values[key];
    if (at !== undefined) return { at, failed: false };
  }
  return { at: null, failed: false };
}

/**
 * The items of an RSS or Atom snapshot, each read on its own: a date that cannot be read is left
 * out with a warning at its path, and an item that is no element at all is an unreadable incident.
 */
export async function readFeedItems(reader: SnapshotReader, body: Uint8Array, ctx: ParseContext): Promise<ReadFeedItem[]> {
  const feed = parseWithSchema(feedSchema, await parseFeedDocument(body, ctx), ctx);
  return feed.items.flatMap((raw, i): ReadFeedItem[] => {
    const path = joinPath("items", i);
    const read = reader.fields(feedItemShape, raw, path);
    if (!read) {
      reader.unreadIncident(null, path);
      return [];
    }
    const v = read.values;
    const published = firstDate(read, ["published", "pubDate", "date"]);
    const updated = firstDate(read, ["updated"]);
    const failed = new Set<"published" | "updated" | "categories">();
    if (published.failed) failed.add("published");
    if (updated.failed) failed.add("updated");
    if (read.failed.has("categories")) failed.add("categories");
    const item: FeedItem = {
      title: v.title ?? null,
      link: v.link ?? null,
      guid: v.guid ?? null,
      id: v.id ?? null,
      published: published.at,
      updated: updated.at,
      html: v["content:encoded"] ?? v.content ?? v.summary ?? "",
      categories: (v.categories ?? []).filter((c): c is string => c !== null),
    };
    return [{ item, path, failed }];
  });
}

/**
 * The item's own time, `first` of its dates when given, else the other; null when it has none,
 * undefined when the one it goes by could not be read.
 */
export function feedItemTime({ item, failed }: ReadFeedItem, first: "published" | "updated" = "published"): string | null | undefined {
  const order: ReadonlyArray<"published" | "updated"> = first === "published" ? ["published", "updated"] : ["updated", "published"];
  for (const key of order) {
    if (failed.has(key)) return undefined;
    const at = item[key];
    if (at !== null) return at;
  }
  return null;
}
