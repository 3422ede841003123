import type { CaptureOutcome } from "@/db/schema";
import type { ParsedSnapshot } from "@/lib/derive/observation";
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
    return { outcome: "ok", error: null, snapshot: await platform.parse(body, context) };
  } catch (error) {
    if (error instanceof SnapshotError) {
      return { outcome: error.kind === "schema" ? "invalid" : "failed", error: error.message, snapshot: null };
    }
    const message = error instanceof Error ? error.message : String(error);
    return { outcome: "invalid", error: `${context.vendor}: snapshot from ${context.source} could not be mapped: ${message}`, snapshot: null };
  }
}
