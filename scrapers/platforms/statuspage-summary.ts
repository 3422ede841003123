/**
 * Statuspage `/api/v2/summary.json`: unresolved incidents plus scheduled maintenances
 * (https://developer.statuspage.io/, https://metastatuspage.com/api/v2/#summary).
 */
import { z } from "zod";
import type { Incident } from "@/lib/incident";
import { decodeJson, parseWithSchema, type ParseContext, type Platform } from "@/scrapers/platforms/platform";
import {
  reshapeStatuspageList,
  statuspageIncidentSchema,
  statuspagePageSchema,
} from "@/scrapers/platforms/statuspage-schema";

const summarySchema = z.object({
  page: statuspagePageSchema.nullish(),
  incidents: z.array(statuspageIncidentSchema),
  scheduled_maintenances: z.array(statuspageIncidentSchema).nullish(),
});

export const statuspageSummaryPlatform: Platform = {
  name: "statuspage-summary",
  description: "Atlassian Statuspage /api/v2/summary.json: unresolved incidents and scheduled maintenances",
  presence: { kind: "active" },
  parserVersion: 1,
  async parse(body: Uint8Array, ctx: ParseContext): Promise<Incident[]> {
    const summary = parseWithSchema(summarySchema, decodeJson(body, ctx), ctx);
    return reshapeStatuspageList([summary.incidents, summary.scheduled_maintenances], summary.page, ctx);
  },
};
