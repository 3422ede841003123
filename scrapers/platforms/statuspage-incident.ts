/**
 * Statuspage `/api/v2/incidents/<id>.json`: one incident, shape `{page, incident}`
 * (https://developer.statuspage.io/, https://metastatuspage.com/api/v2/).
 */
import { z } from "zod";
import type { Incident } from "@/lib/incident";
import { decodeJson, parseWithSchema, type ParseContext, type Platform } from "@/scrapers/platforms/platform";
import {
  reshapeStatuspageIncident,
  statuspageIncidentSchema,
  statuspagePageSchema,
} from "@/scrapers/platforms/statuspage-schema";

const singleSchema = z.object({
  page: statuspagePageSchema.nullish(),
  incident: statuspageIncidentSchema,
});

export const statuspageIncidentPlatform: Platform = {
  name: "statuspage-incident",
  description: "Atlassian Statuspage /api/v2/incidents/<id>.json: one incident",
  presence: { kind: "single" },
  parserVersion: 1,
  async parse(body: Uint8Array, ctx: ParseContext): Promise<Incident[]> {
    const single = parseWithSchema(singleSchema, decodeJson(body, ctx), ctx);
    return [reshapeStatuspageIncident(single.incident, single.page, ctx)];
  },
};
