/**
 * Statuspage `/api/v2/incidents.json` (the 50 most recent incidents, any status) and
 * `/api/v2/scheduled-maintenances.json`, which share the list shape
 * (https://developer.statuspage.io/, https://metastatuspage.com/api/v2/#incidents).
 */
import { PLATFORM_PROFILES } from "@/lib/platform-profiles";
import { z } from "zod";
import { decodeJson, parseWithSchema, type Platform } from "@/scrapers/platforms/platform";
import { SnapshotReader } from "@/scrapers/platforms/snapshot-reader";
import { readStatuspageLists, readStatuspagePage } from "@/scrapers/platforms/statuspage-schema";

const listSchema = z
  .object({
    page: z.unknown().optional(),
    incidents: z.array(z.unknown()).optional(),
    scheduled_maintenances: z.array(z.unknown()).optional(),
  })
  .refine((list) => list.incidents !== undefined || list.scheduled_maintenances !== undefined, {
    message: "expected an incidents or scheduled_maintenances array",
  });

export const statuspageIncidentsPlatform: Platform = {
  name: "statuspage-incidents",
  description: "Atlassian Statuspage /api/v2/incidents.json (50 most recent) or scheduled-maintenances.json",
  profile: PLATFORM_PROFILES["statuspage-incidents"],
  parserVersion: 1,
  async parse(body, ctx) {
    const list = parseWithSchema(listSchema, decodeJson(body, ctx), ctx);
    const reader = new SnapshotReader(ctx);
    const page = readStatuspagePage(reader, list.page);
    readStatuspageLists(reader, [{ key: "incidents", raw: list.incidents }, { key: "scheduled_maintenances", raw: list.scheduled_maintenances }], page, ctx);
    return reader.snapshot();
  },
};
