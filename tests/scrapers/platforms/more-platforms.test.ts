import { describe, expect, it } from "vitest";
import { PLATFORMS } from "@/scrapers/platforms";
import { morePlatforms } from "@/scrapers/platforms/more-platforms";

describe("morePlatforms", () => {
  it("lists every new parser once, named by its product, at parser version 1 but those whose reading of stored captures changed since", () => {
    expect(morePlatforms.map((p) => p.name)).toEqual([
      "incidentio-feed",
      "incidentio-widget",
      "incidentio-incidents",
      "instatus-summary",
      "instatus-components",
      "betterstack-index",
      "betterstack-rss",
      "cachet-v2",
      "cachet-v3",
      "cachet-v2-components",
      "cachet-v2-groups",
      "cachet-v3-components",
      "azure-rss",
      "rss",
      "statuspage-incident-page",
    ]);
    // The widget and index.json came to state the component grid.
    const upgraded: Record<string, number> = { "incidentio-widget": 2, "betterstack-index": 2 };
    for (const platform of morePlatforms) expect(platform.parserVersion, platform.name).toBe(upgraded[platform.name] ?? 1);
  });

  it("shares no name with the platforms already registered", () => {
    const existing = new Set(PLATFORMS.map((p) => p.name));
    expect(morePlatforms.filter((p) => existing.has(p.name) && !PLATFORMS.includes(p))).toEqual([]);
  });

  it("lets full-update formats state the whole update list and latest-message formats a partial one", () => {
    const stating = (list: string) => morePlatforms.filter((p) => p.profile.updates?.list === list).map((p) => p.name);
    expect(stating("full")).toEqual(["incidentio-incidents", "betterstack-index", "cachet-v2", "cachet-v3", "rss"]);
    expect(stating("partial")).toEqual(["incidentio-feed", "incidentio-widget", "azure-rss"]);
  });
});
