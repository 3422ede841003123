/**
 * Statuspage `/api/v2/summary.json`: unresolved incidents plus scheduled maintenances
 * (https://developer.statuspage.io/, https://metastatuspage.com/api/v2/#summary).
 */
import { PLATFORM_PROFILES } from "@/lib/platform-profiles";
import { z } from "zod";
import { decodeJson, parseWithSchema, type Platform } from "@/scrapers/platforms/platform";
import { SnapshotReader } from "@/scrapers/platforms/snapshot-reader";
import { readStatuspageComponents } from "@/scrapers/platforms/statuspage-components";
import { readStatuspageLists, readStatuspagePage } from "@/scrapers/platforms/statuspage-schema";

const summarySchema = z.object({
  page: z.unknown().optional(),
  incidents: z.array(z.unknown()),
  scheduled_maintenances: z.unknown().optional(),
  components: z.unknown().optional(),
});

export const statuspageSummaryPlatform: Platform = {
  name: "statuspage-summary",
  description: "Atlassian Statuspage /api/v2/summary.json: unresolved incidents, scheduled maintenances and the component grid",
  profile: PLATFORM_PROFILES["statuspage-summary"],
  parserVersion: 2,
  async parse(body, ctx) {
    const summary = parseWithSchema(summarySchema, decodeJson(body, ctx), ctx);
    const reader = new SnapshotReader(ctx);
    const page = readStatuspagePage(reader, summary.page);
    readStatuspageLists(reader, [{ key: "incidents", raw: summary.incidents }, { key: "scheduled_maintenances", raw: summary.scheduled_maintenances }], page, ctx);
    readStatuspageComponents(reader, summary.components);
    return reader.snapshot();
  },
};
