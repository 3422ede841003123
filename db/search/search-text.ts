import type Database from "better-sqlite3";
import { compressSearchText, decompressSearchText } from "@/db/history/body-codec";

/**
 * The full-text index keeps no copy of the text it indexes: incident_search is an external-content
 * FTS5 table over the view incident_search_source, which decodes incident_search_text's one
 * compressed row per incident through these functions (decision 0020). Every connection that
 * searches, snippets, deletes incidents or checks integrity must register them first.
 */

/** SQL: pack(title, updates, postmortem) → the stored blob. */
export const PACK_FUNCTION = "redline_search_pack";
/** SQL: field(blob, 0 | 1 | 2) → title, updates or postmortem. */
export const FIELD_FUNCTION = "redline_search_field";

export type SearchFields = [title: string, updates: string, postmortem: string];

export class SearchTextError extends Error {
  readonly kind = "search-text";
}

export function packSearchText(fields: SearchFields): Buffer {
  return compressSearchText(Buffer.from(JSON.stringify(fields)));
}

export function unpackSearchText(stored: Uint8Array): SearchFields {
  let parsed: unknown;
  try {
    parsed = JSON.parse(decompressSearchText(stored).toString("utf8"));
  } catch (error) {
    throw new SearchTextError(`search: unable to decode an incident's indexed text: ${(error as Error).message}`, { cause: error });
  }
  if (!Array.isArray(parsed) || parsed.length !== 3 || !parsed.every((f) => typeof f === "string")) {
    throw new SearchTextError("search: an incident's indexed text is not [title, updates, postmortem]");
  }
  return parsed as SearchFields;
}

/** The text one incident is indexed by, as every write path computes it. */
export function searchFieldsOf(incident: { title: string; updates: ReadonlyArray<{ body: string }>; postmortem?: { body: string } | null }): SearchFields {
  return [incident.title, incident.updates.map((u) => u.body).join("\n"), incident.postmortem?.body ?? ""];
}

/**
 * The view reads each row's three columns with three calls, and FTS5's triggers read old then new:
 * remembering the last blob decoded makes that one decompression per row instead of three.
 */
function fieldReader(): (stored: unknown, index: unknown) => string {
  let last: { stored: Buffer; fields: SearchFields } | null = null;
  return (stored, index) => {
    if (!Buffer.isBuffer(stored)) throw new SearchTextError(`search: ${FIELD_FUNCTION} takes a blob`);
    if (index !== 0 && index !== 1 && index !== 2) throw new SearchTextError(`search: ${FIELD_FUNCTION} takes a field 0, 1 or 2`);
    if (!last || !last.stored.equals(stored)) last = { stored: Buffer.from(stored), fields: unpackSearchText(stored) };
    return last.fields[index];
  };
}

/** Make the search text functions available to this connection's SQL, its views and triggers. */
export function registerSearchFunctions(file: Database.Database): void {
  file.function(PACK_FUNCTION, { deterministic: true }, (title: unknown, updates: unknown, postmortem: unknown) =>
    packSearchText([String(title ?? ""), String(updates ?? ""), String(postmortem ?? "")]),
  );
  file.function(FIELD_FUNCTION, { deterministic: true }, fieldReader());
}

/** Whether the file's search index still keeps its own plain copy of the text (the layout before migration 0018). */
export function searchTextPending(file: Database.Database): boolean {
  return file.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'incident_search_content'").get() !== undefined;
}
