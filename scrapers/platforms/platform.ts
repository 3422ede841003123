import { z } from "zod";
import { printable } from "@/lib/error-message";
import type { ParsedSnapshot } from "@/lib/derive/observation";
import type { SourceProfile, StatedField } from "@/lib/derive/source-profile";
import { TimestampError, toUtcIso } from "@/lib/time";
import { formatIssuePath } from "@/scrapers/platforms/snapshot-reader";

export type { PresenceRule } from "@/lib/derive/presence";
export { formatIssuePath } from "@/scrapers/platforms/snapshot-reader";

export interface ParseContext {
  /** Vendor slug, copied into every incident. */
  vendor: string;
  /** Where the snapshot came from: a file name or an endpoint URL. */
  source: string;
  /** When the snapshot was fetched (ISO UTC); feeds that print dates without a year need it. */
  observedAt: string;
}

export interface Platform {
  name: string;
  /** One line for `--help` and docs/platforms.md. */
  description: string;
  /** What its snapshots list and which fields they state, how precisely. */
  profile: SourceProfile;
  /** Bump when the mapping changes: stored history is then re-derived from the raw captures. */
  parserVersion: number;
  /**
   * Bytes to incidents. Throws SnapshotError only when the bytes are not this format at all
   * (empty, not JSON or XML, the wrong top-level shape); a malformed element costs only itself.
   */
  parse(body: Uint8Array, context: ParseContext): Promise<ParsedSnapshot>;
}

/** The fields a platform states, in the words of docs/platforms.md. */
export function statedFields(platform: Platform): StatedField[] {
  return Object.keys(platform.profile.fields) as StatedField[];
}

export type SnapshotErrorKind = "empty" | "unparseable" | "schema";

/** A snapshot that cannot become incidents. "empty" and "unparseable" mean the fetch failed. */
export class SnapshotError extends Error {
  readonly kind: SnapshotErrorKind;
  constructor(kind: SnapshotErrorKind, message: string, options?: { cause?: unknown }) {
    super(printable(message), options);
    this.kind = kind;
    this.name = "SnapshotError";
  }
}

/** Validate a decoded payload; a mismatch names the vendor, the source and the failing path. */
export function parseWithSchema<T extends z.ZodType>(schema: T, payload: unknown, context: ParseContext): z.infer<T> {
  const result = schema.safeParse(payload);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue ? formatIssuePath(issue.path) : "(root)";
  const why = issue ? issue.message : "does not match the schema";
  throw new SnapshotError(
    "schema",
    `${context.vendor}: snapshot from ${context.source} is invalid at ${where}: ${why}`,
    { cause: result.error },
  );
}

/** Bytes to a JSON value; an empty or undecodable body is a failed fetch, not a vendor change. */
export function decodeJson(body: Uint8Array, context: ParseContext): unknown {
  const text = decodeText(body, context);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new SnapshotError(
      "unparseable",
      `${context.vendor}: snapshot from ${context.source} is not JSON: ${(error as Error).message}`,
      { cause: error },
    );
  }
}

/** Bytes to text (UTF-8, BOM dropped); empty or whitespace-only bodies are failed fetches. */
export function decodeText(body: Uint8Array, context: ParseContext): string {
  const text = new TextDecoder("utf-8", { fatal: false, ignoreBOM: false }).decode(body);
  if (text.trim() === "") {
    throw new SnapshotError("empty", `${context.vendor}: snapshot from ${context.source} is empty`);
  }
  return text;
}

/** A vendor timestamp with any UTC offset, as ISO UTC; anything else fails at its path in the payload. */
export const utcTimestampField = z.string().transform((value, ctx) => {
  try {
    return toUtcIso(value);
  } catch (error) {
    if (!(error instanceof TimestampError)) throw error;
    ctx.addIssue({ code: "custom", message: error.message });
    return z.NEVER;
  }
});

/** Like utcTimestampField; absent or null becomes null. */
export const optionalUtcTimestampField = utcTimestampField.nullish().transform((value) => value ?? null);
