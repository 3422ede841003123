import { describe, expect, it } from "vitest";
import { plannedEndpoints, type PollPlan } from "@/scrapers/live/live-platform";
import { moreLivePlatforms } from "@/scrapers/live/more-live";
import { morePlatforms } from "@/scrapers/platforms/more-platforms";

function plan(name: string, url: string): PollPlan {
  const live = moreLivePlatforms.find((p) => p.name === name);
  if (!live) throw new Error(`no live platform ${name}`);
  return live.plan(new URL(url));
}

function endpoints(name: string, url: string): Array<[string, string]> {
  return plan(name, url).endpoints.map((e) => [e.url, e.platform]);
}

describe("moreLivePlatforms", () => {
  it("uses exactly the family names the catalog refers to, each with documentation", () => {
    expect(moreLivePlatforms.map((p) => p.name)).toEqual(["incidentio", "instatus", "betterstack", "cachet-v2", "cachet-v3", "azure", "rss", "aws"]);
    for (const live of moreLivePlatforms) expect(live.docs, live.name).toMatch(/^https:\/\//);
  });

  it("only ever names parsers that exist", () => {
    const parsers = new Set(morePlatforms.map((p) => p.name));
    const bases = ["https://status.example.test/", "https://status.example.test/some/page"];
    for (const live of moreLivePlatforms) {
      for (const base of bases) {
        const planned = live.plan(new URL(base));
        for (const e of plannedEndpoints(planned)) expect(parsers, `${live.name} ${e.platform}`).toContain(e.platform);
      }
    }
  });

  it("polls an incident.io page's Statuspage-compatible API and falls back to its feed", () => {
    expect(plan("incidentio", "https://status.openai.com/history")).toEqual({
      endpoints: [{ url: "https://status.openai.com/api/v2/incidents.json", platform: "incidentio-incidents" }],
      fallback: [{ url: "https://status.openai.com/feed.rss", platform: "incidentio-feed" }],
    });
  });

  it("reads an incident.io endpoint URL with its own parser", () => {
    expect(endpoints("incidentio", "https://status.example.test/feed.atom")).toEqual([["https://status.example.test/feed.atom", "incidentio-feed"]]);
    expect(endpoints("incidentio", "https://status.example.test/api/v1/summary")).toEqual([["https://status.example.test/api/v1/summary", "incidentio-widget"]]);
    expect(endpoints("incidentio", "https://status.example.test/api/v2/incidents.json")).toEqual([
      ["https://status.example.test/api/v2/incidents.json", "incidentio-incidents"],
    ]);
  });

  it("polls Instatus summary.json from a base URL, then the grid from v2/components.json, and either exact URL alone", () => {
    expect(plan("instatus", "https://instat.us")).toEqual({
      endpoints: [{ url: "https://instat.us/summary.json", platform: "instatus-summary" }],
      grid: [{ url: "https://instat.us/v2/components.json", platform: "instatus-components" }],
    });
    expect(plan("instatus", "https://instat.us/summary.json")).toEqual({ endpoints: [{ url: "https://instat.us/summary.json", platform: "instatus-summary" }] });
    expect(endpoints("instatus", "https://instat.us/v2/components.json")).toEqual([["https://instat.us/v2/components.json", "instatus-components"]]);
  });

  it("polls Better Stack index.json and falls back to feed.rss", () => {
    expect(plan("betterstack", "https://status.example.test")).toEqual({
      endpoints: [{ url: "https://status.example.test/index.json", platform: "betterstack-index" }],
      fallback: [{ url: "https://status.example.test/feed.rss", platform: "betterstack-rss" }],
    });
    expect(endpoints("betterstack", "https://status.example.test/feed.rss")).toEqual([["https://status.example.test/feed.rss", "betterstack-rss"]]);
  });

  it("polls the newest Cachet incidents below the page's own path, then its components (and 2.x's groups)", () => {
    expect(plan("cachet-v2", "https://example.test/status/")).toEqual({
      endpoints: [{ url: "https://example.test/status/api/v1/incidents?sort=id&order=desc&per_page=50", platform: "cachet-v2" }],
      grid: [
        { url: "https://example.test/status/api/v1/components?per_page=500", platform: "cachet-v2-components" },
        { url: "https://example.test/status/api/v1/components/groups?per_page=500", platform: "cachet-v2-groups" },
      ],
    });
    expect(plan("cachet-v3", "https://status.example.test")).toEqual({
      endpoints: [{ url: "https://status.example.test/api/incidents?include=components,updates&sort=-id&per_page=50", platform: "cachet-v3" }],
      grid: [{ url: "https://status.example.test/api/components?include=group&per_page=100", platform: "cachet-v3-components" }],
    });
    expect(endpoints("cachet-v2", "https://status.example.test/api/v1/incidents?per_page=10")).toEqual([
      ["https://status.example.test/api/v1/incidents?per_page=10", "cachet-v2"],
    ]);
  });

  it("polls the Azure feed in the page's locale", () => {
    expect(endpoints("azure", "https://azure.status.microsoft/en-gb/status")).toEqual([["https://azure.status.microsoft/en-gb/status/feed/", "azure-rss"]]);
    expect(endpoints("azure", "https://azure.status.microsoft")).toEqual([["https://azure.status.microsoft/en-us/status/feed/", "azure-rss"]]);
    expect(endpoints("azure", "https://rssfeed.azure.status.microsoft/en-us/status/feed/")).toEqual([
      ["https://rssfeed.azure.status.microsoft/en-us/status/feed/", "azure-rss"],
    ]);
  });

  it("polls AWS all.rss, or a per-service feed given exactly, with the rss parser", () => {
    expect(endpoints("aws", "https://status.aws.amazon.com/")).toEqual([["https://status.aws.amazon.com/rss/all.rss", "rss"]]);
    expect(endpoints("aws", "https://status.aws.amazon.com/rss/ec2-us-east-1.rss")).toEqual([["https://status.aws.amazon.com/rss/ec2-us-east-1.rss", "rss"]]);
  });

  it("polls any feed at exactly the URL given", () => {
    expect(endpoints("rss", "https://eng.example.test/postmortems.atom?tag=outage")).toEqual([["https://eng.example.test/postmortems.atom?tag=outage", "rss"]]);
  });
});
