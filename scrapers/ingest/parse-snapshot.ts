import type { CaptureOutcome } from "@/db/schema";
import type { Incident } from "@/lib/incident";
import { type Platform, SnapshotError } from "@/scrapers/platforms/platform";

export interface ParseOutcome {
  outcome: CaptureOutcome;
  error: string | null;
  incidents: Incident[] | null;
}

/**
 * Parse a snapshot into an outcome: ok with incidents, failed (empty or unparseable: the fetch
 * went wrong), or invalid (the payload broke the vendor's schema). Never throws for bad input.
 */
export async function parseSnapshot(
  platform: Platform,
  body: Uint8Array,
  context: { vendor: string; source: string; observedAt: string },
): Promise<ParseOutcome> {
  try {
    const incidents = await platform.parse(body, context);
    return { outcome: "ok", error: null, incidents };
  } catch (error) {
    if (error instanceof SnapshotError) {
      return { outcome: error.kind === "schema" ? "invalid" : "failed", error: error.message, incidents: null };
    }
    const message = error instanceof Error ? error.message : String(error);
    return { outcome: "invalid", error: `${context.vendor}: snapshot from ${context.source} could not be mapped: ${message}`, incidents: null };
  }
}

