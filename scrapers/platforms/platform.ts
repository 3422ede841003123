import { z } from "zod";
import type { Incident } from "@/lib/incident";
import type { CarryRule } from "@/lib/carried-fields";
import type { PresenceRule } from "@/lib/presence";
import { TimestampError, toUtcIso } from "@/lib/time";

export type { PresenceRule } from "@/lib/presence";

export interface ParseContext {
  /** Vendor slug, copied into every incident. */
  vendor: string;
  /** Where the snapshot came from: a file name or an endpoint URL. */
  source: string;
  /** When the snapshot was fetched (ISO UTC); feeds that print dates without a year need it. */
  observedAt: string;
}

export interface Platform extends CarryRule {
  name: string;
  /** One line for `--help` and the README. */
  description: string;
  presence: PresenceRule;
  /** Bump when the mapping changes: stored history is then re-derived from the raw captures. */
  parserVersion: number;
  parse(body: Uint8Array, context: ParseContext): Promise<Incident[]>;
}

/** The platform's carry rule, as the store takes it. */
export function carryOf(platform: Platform): CarryRule {
  return { carries: platform.carries, createsIncidents: platform.createsIncidents };
}

export type SnapshotErrorKind = "empty" | "unparseable" | "schema";

/** A snapshot that cannot become incidents. "empty" and "unparseable" mean the fetch failed. */
export class SnapshotError extends Error {
  readonly kind: SnapshotErrorKind;
  constructor(kind: SnapshotErrorKind, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.kind = kind;
    this.name = "SnapshotError";
  }
}

/** "incidents[3].incident_updates[0].created_at" from a zod issue path. */
export function formatIssuePath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out === "" ? String(key) : `.${String(key)}`;
  }
  return out === "" ? "(root)" : out;
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
