/**
 * Statuspage `/api/v2/incidents/<id>.json`: one incident, shape `{page, incident}`
 * (https://developer.statuspage.io/, https://metastatuspage.com/api/v2/). Webhook payloads
 * share the incident object but carry no page.
 */
import { PLATFORM_PROFILES } from "@/lib/platform-profiles";
import { z } from "zod";
import { decodeJson, parseWithSchema, type Platform } from "@/scrapers/platforms/platform";
import { SnapshotReader } from "@/scrapers/platforms/snapshot-reader";
import { readStatuspageIncident, readStatuspagePage } from "@/scrapers/platforms/statuspage-schema";

const singleSchema = z.object({
  page: z.unknown().optional(),
  incident: z.record(z.string(), z.unknown()),
});

export const statuspageIncidentPlatform: Platform = {
  name: "statuspage-incident",
  description: "Atlassian Statuspage /api/v2/incidents/<id>.json: one incident",
  profile: PLATFORM_PROFILES["statuspage-incident"],
  parserVersion: 1,
  async parse(body, ctx) {
    const single = parseWithSchema(singleSchema, decodeJson(body, ctx), ctx);
    const reader = new SnapshotReader(ctx);
    readStatuspageIncident(reader, single.incident, "incident", readStatuspagePage(reader, single.page), ctx);
    return reader.snapshot();
  },
};
