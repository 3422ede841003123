import { type Incident, incidentSchema } from "@/lib/incident";
import type { PresenceRule } from "@/lib/presence";
import { decodeJson, parseWithSchema, type Platform } from "@/scrapers/platforms/platform";
import { z } from "zod";

const payloadSchema = z.object({ incidents: z.array(incidentSchema) });

/** A platform whose snapshots are already normalized incidents: the store's tests control every field. */
export function makeTestPlatform(presence: PresenceRule, parserVersion = 1, name = "test-feed"): Platform {
  return {
    name,
    description: "normalized incidents as JSON, for tests",
    presence,
    parserVersion,
    async parse(body, context) {
      return parseWithSchema(payloadSchema, decodeJson(body, context), context).incidents;
    },
  };
}

export function snapshotBody(incidents: readonly Incident[]): Uint8Array {
  return Buffer.from(JSON.stringify({ incidents }));
}
