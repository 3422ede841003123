import { z } from "zod";
import { wholeSnapshot } from "@/lib/derive/observation";
import type { PresenceRule } from "@/lib/derive/presence";
import { exactProfile, type SourceProfile } from "@/lib/derive/source-profile";
import { incidentSchema, type Incident } from "@/lib/incident";
import { decodeJson, parseWithSchema, type Platform } from "@/scrapers/platforms/platform";

const payloadSchema = z.object({ incidents: z.array(incidentSchema) });

/** A platform whose snapshots are already normalized incidents: the store's tests control every field. */
export function makeTestPlatform(presence: PresenceRule, parserVersion = 1, name = "test-feed", profile: Partial<Omit<SourceProfile, "presence">> = {}): Platform {
  return {
    name,
    description: "normalized incidents as JSON, for tests",
    profile: exactProfile(presence, profile),
    parserVersion,
    async parse(body, context) {
      return wholeSnapshot(parseWithSchema(payloadSchema, decodeJson(body, context), context).incidents);
    },
  };
}

export function snapshotBody(incidents: readonly Incident[]): Uint8Array {
  return Buffer.from(JSON.stringify({ incidents }));
}
