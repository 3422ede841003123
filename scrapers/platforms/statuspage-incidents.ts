/**
 * Statuspage `/api/v2/incidents.json` (the 50 most recent incidents, any status) and
 * `/api/v2/scheduled-maintenances.json`, which share the list shape
 * (https://developer.statuspage.io/, https://metastatuspage.com/api/v2/#incidents).
 */
import { z } from "zod";
import type { Incident } from "@/lib/incident";
import { decodeJson, parseWithSchema, type ParseContext, type Platform } from "@/scrapers/platforms/platform";
import {
  reshapeStatuspageList,
  statuspageIncidentSchema,
  statuspagePageSchema,
} from "@/scrapers/platforms/statuspage-schema";

const listSchema = z
  .object({
    page: statuspagePageSchema.nullish(),
    incidents: z.array(statuspageIncidentSchema).optional(),
    scheduled_maintenances: z.array(statuspageIncidentSchema).optional(),
  })
  .refine((list) => list.incidents !== undefined || list.scheduled_maintenances !== undefined, {
    message: "expected an incidents or scheduled_maintenances array",
  });

export const statuspageIncidentsPlatform: Platform = {
  name: "statuspage-incidents",
  description: "Atlassian Statuspage /api/v2/incidents.json (50 most recent) or scheduled-maintenances.json",
  presence: { kind: "recent", limit: 50 },
  parserVersion: 1,
  async parse(body: Uint8Array, ctx: ParseContext): Promise<Incident[]> {
    const list = parseWithSchema(listSchema, decodeJson(body, ctx), ctx);
    return reshapeStatuspageList([list.incidents, list.scheduled_maintenances], list.page, ctx);
  },
};
