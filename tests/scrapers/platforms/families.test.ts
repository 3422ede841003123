import { describe, expect, it } from "vitest";
import { LIVE_PLATFORMS } from "@/scrapers/live";
import { plannedEndpoints } from "@/scrapers/live/live-platform";
import { PLATFORMS } from "@/scrapers/platforms";
import { isSameFamily, PLATFORM_FAMILIES, platformFamily } from "@/scrapers/platforms/families";

describe("platform families", () => {
  it.each(PLATFORMS.map((p) => p.name))("import platform %s has a family", (name) => {
    expect(PLATFORM_FAMILIES).toContain(platformFamily(name));
  });

  it.each(LIVE_PLATFORMS.map((p) => p.name))("live platform %s has a family", (name) => {
    expect(PLATFORM_FAMILIES).toContain(platformFamily(name));
  });

  it("every family has a platform", () => {
    const used = new Set([...PLATFORMS, ...LIVE_PLATFORMS].map((p) => platformFamily(p.name)));
    expect([...used].sort()).toEqual([...PLATFORM_FAMILIES].sort());
  });

  it("a live platform polled at a base URL reads only formats of its own family, but aws reads AWS's feed as generic rss", () => {
    const base = new URL("https://status.example.com/");
    for (const live of LIVE_PLATFORMS) {
      const plan = live.plan(base);
      for (const endpoint of plannedEndpoints(plan)) {
        if (live.name === "aws") expect(endpoint.platform).toBe("rss");
        else expect(platformFamily(endpoint.platform), `${live.name} plans ${endpoint.platform}`).toBe(platformFamily(live.name));
      }
    }
  });

  it("same-family names match, other families and unknown names do not", () => {
    expect(isSameFamily("statuspage", "statuspage-atom")).toBe(true);
    expect(isSameFamily("statuspage-summary", "statuspage-incidents")).toBe(true);
    expect(isSameFamily("statuspage-incident-page", "statuspage")).toBe(true);
    expect(isSameFamily("aws", "aws-legacy")).toBe(true);
    expect(isSameFamily("cachet-v2", "cachet-v3")).toBe(true);
    expect(isSameFamily("statuspage", "gcp")).toBe(false);
    expect(isSameFamily("statuspage-rss", "rss")).toBe(false);
    expect(isSameFamily("incidentio-incidents", "statuspage-incidents")).toBe(false);
    expect(isSameFamily("test-feed", "test-feed")).toBe(true);
    expect(isSameFamily("test-feed", "statuspage")).toBe(false);
    expect(isSameFamily("statuspage", "test-feed")).toBe(false);
  });
});
