import type Database from "better-sqlite3";
import { dictionaryCodec } from "@/db/history/json-dictionary";
import { type PackedJson, unpackJson } from "@/db/history/packed-json";
import { VERSION_DICTIONARY_V1 } from "@/db/history/version-dictionary";
import type { Change } from "@/lib/change";

/**
 * What a version says beyond its place in the history: its changes, its derived text, and the
 * incident's title, impact and kind as of that version (for lists of changes). Stored as one
 * zstd frame compressed against a fixed dictionary (db/history/version-dictionary.ts): each row is a
 * few hundred bytes, too little for a frame of its own to find the repetition the dictionary holds.
 */
export interface VersionContent {
  changes: Change[];
  summary: string;
  headline: string;
  title: string | null;
  impact: string | null;
  incidentKind: string | null;
  /**
   * The incident's status as of the version, and whether it was open then (listed, not resolved):
   * what the page as it was at a moment lists. Absent from versions written before they were kept.
   */
  status?: string | null;
  open?: boolean;
}

export class VersionContentError extends Error {
  readonly kind = "version-content";
}

/** The first byte of every stored frame: which dictionary and layout it was written with. */
const CONTENT_FORMAT = 1;
/** Level 19 is 1-2% smaller than 9 here but takes about 0.6 ms a row against 0.05-0.12 (docs/decisions/0022). */
const LEVEL = 9;

/** The text fields, then the changes: a reader of text alone stops at the newline (JSON text never holds a raw one). */
type StoredText = [string, string, string | null, string | null, string | null, (string | null)?, boolean?];

const codec = dictionaryCodec(() => Buffer.from(VERSION_DICTIONARY_V1, "utf8"), { compressionLevel: LEVEL, checksumFlag: false, dictIDFlag: false });

export function packVersionContent(content: VersionContent): Buffer {
  const text: StoredText = [content.summary, content.headline, content.title, content.impact, content.incidentKind];
  if (content.open !== undefined) text.push(content.status ?? null, content.open);
  const plain = `${JSON.stringify(text)}\n${JSON.stringify(content.changes)}`;
  return Buffer.concat([Buffer.of(CONTENT_FORMAT), codec.compress(Buffer.from(plain, "utf8"))]);
}

/** The frame's plain bytes and where its text ends (the newline before the changes). */
function decompressContent(value: Buffer): { plain: Buffer; split: number } {
  if (value[0] !== CONTENT_FORMAT) throw new VersionContentError(`store: version content of unknown format ${String(value[0])}`);
  let plain: Buffer;
  try {
    plain = codec.decompress(value.subarray(1));
  } catch (error) {
    throw new VersionContentError(`store: unable to read a version's content: ${(error as Error).message}`, { cause: error });
  }
  const split = plain.indexOf(0x0a);
  if (split < 0) throw new VersionContentError("store: a version's content has no changes after its text");
  return { plain, split };
}

function textOf(plain: Buffer, split: number): Omit<VersionContent, "changes"> {
  const [summary, headline, title, impact, incidentKind, status, open] = JSON.parse(plain.toString("utf8", 0, split)) as StoredText;
  return open === undefined ? { summary, headline, title, impact, incidentKind } : { summary, headline, title, impact, incidentKind, status: status ?? null, open };
}

/** What lists show of a version, without decoding its changes. */
export function unpackVersionText(value: Buffer): Omit<VersionContent, "changes"> {
  const { plain, split } = decompressContent(value);
  return textOf(plain, split);
}

export function unpackVersionContent(value: Buffer): VersionContent {
  const { plain, split } = decompressContent(value);
  return { ...textOf(plain, split), changes: JSON.parse(plain.toString("utf8", split + 1)) as Change[] };
}

/** The same content with its derived text replaced (a re-render keeps everything else as stored). */
export function withVersionText(value: Buffer, text: { summary: string; headline: string }): Buffer {
  return packVersionContent({ ...unpackVersionContent(value), ...text });
}

export const VERSION_CONTENT_FUNCTION = "redline_version_content";

const FIELDS = ["changes", "summary", "headline", "title", "impact", "incidentKind"] as const;
type Field = (typeof FIELDS)[number];

function fieldOf(name: unknown): Field {
  const field = FIELDS.find((f) => f === name);
  if (!field) throw new VersionContentError(`store: a version's content has no field ${String(name)}`);
  return field;
}

/**
 * The SQL function migration 0021 packs the earlier columns with (changes plain or deflated, as
 * db/history/packed-json.ts wrote them); registered on every connection before migrations run.
 */
export function registerVersionContentFunction(sqlite: Database.Database): void {
  sqlite.function(VERSION_CONTENT_FUNCTION, { deterministic: true }, (changes: unknown, summary: unknown, headline: unknown, title: unknown, impact: unknown, incidentKind: unknown) => {
    const text = (v: unknown) => (v === null || v === undefined ? null : String(v));
    return packVersionContent({
      changes: JSON.parse(unpackJson(changes as PackedJson)) as Change[],
      summary: String(summary ?? ""),
      headline: String(headline ?? ""),
      title: text(title),
      impact: text(impact),
      incidentKind: text(incidentKind),
    });
  });
  // For SQL by hand (and tests): one field of a content (changes as JSON), and a content with one text field replaced.
  sqlite.function("redline_version_field", { deterministic: true }, (content: unknown, name: unknown) => {
    const value = unpackVersionContent(content as Buffer)[fieldOf(name)];
    return typeof value === "string" || value === null ? value : JSON.stringify(value);
  });
  sqlite.function("redline_version_with", { deterministic: true }, (content: unknown, name: unknown, value: unknown) => {
    const field = fieldOf(name);
    if (field === "changes") throw new VersionContentError("store: a version's changes are not replaced by hand");
    return packVersionContent({ ...unpackVersionContent(content as Buffer), [field]: value === null ? null : String(value) });
  });
}

/** Whether the file's versions still keep changes and text in columns of their own (the layout before migration 0021). */
export function versionContentPending(sqlite: Database.Database): boolean {
  const columns = sqlite.prepare<[], { name: string }>("SELECT name FROM pragma_table_info('incident_versions')").all();
  return columns.length > 0 && !columns.some((c) => c.name === "content");
}
