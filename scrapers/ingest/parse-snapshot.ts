import type { CaptureOutcome } from "@/db/schema";
import { type ParsedSnapshot, withBoundedIds } from "@/lib/derive/observation";
import { errorMessage, printable } from "@/lib/error-message";
import { type Platform, SnapshotError } from "@/scrapers/platforms/platform";

export interface ParseOutcome {
  outcome: CaptureOutcome;
  error: string | null;
  snapshot: ParsedSnapshot | null;
}

/**
 * Parse a snapshot into an outcome: ok with incidents (and warnings for what could not be read),
 * failed (empty or unparseable: the fetch went wrong), or invalid (not the vendor's format at all).
 * Never throws for bad input.
 */
export async function parseSnapshot(
  platform: Platform,
  body: Uint8Array,
  context: { vendor: string; source: string; observedAt: string },
): Promise<ParseOutcome> {
  try {
    return { outcome: "ok", error: null, snapshot: withBoundedIds(await platform.parse(body, context)) };
  } catch (error) {
    if (error instanceof SnapshotError) {
      return { outcome: error.kind === "schema" ? "invalid" : "failed", error: error.message, snapshot: null };
    }
    return { outcome: "invalid", error: printable(`${context.vendor}: snapshot from ${context.source} could not be mapped: ${errorMessage(error)}`), snapshot: null };
  }
}
