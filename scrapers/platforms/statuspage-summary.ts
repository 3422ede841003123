/**
 * Statuspage `/api/v2/summary.json`: unresolved incidents plus scheduled maintenances
 * (https://developer.statuspage.io/, https://metastatuspage.com/api/v2/#summary).
 */
import { PLATFORM_PROFILES } from "@/lib/platform-profiles";
import { z } from "zod";
import { decodeJson, parseWithSchema, type Platform } from "@/scrapers/platforms/platform";
import { SnapshotReader } from "@/scrapers/platforms/snapshot-reader";
import { readStatuspageLists, readStatuspagePage } from "@/scrapers/platforms/statuspage-schema";

const summarySchema = z.object({
  page: z.unknown().optional(),
  incidents: z.array(z.unknown()),
  scheduled_maintenances: z.unknown().optional(),
});

export const statuspageSummaryPlatform: Platform = {
  name: "statuspage-summary",
  description: "Atlassian Statuspage /api/v2/summary.json: unresolved incidents and scheduled maintenances",
  profile: PLATFORM_PROFILES["statuspage-summary"],
  parserVersion: 1,
  async parse(body, ctx) {
    const summary = parseWithSchema(summarySchema, decodeJson(body, ctx), ctx);
    const reader = new SnapshotReader(ctx);
    const page = readStatuspagePage(reader, summary.page);
    readStatuspageLists(reader, [{ key: "incidents", raw: summary.incidents }, { key: "scheduled_maintenances", raw: summary.scheduled_maintenances }], page, ctx);
    return reader.snapshot();
  },
};
