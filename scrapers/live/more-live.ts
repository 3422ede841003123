/**
 * Live polling plans for incident.io, Instatus, Better Stack, Cachet 2 and 3, Azure, AWS and any
 * RSS/Atom feed. Each maps a status page's base URL, or an exact endpoint URL, to what to fetch.
 */
import { atOrigin, type Endpoint, type LivePlatform, type PollPlan, pointsAt } from "@/scrapers/live/live-platform";

function only(url: URL | string, platform: string): PollPlan {
  return { endpoints: [{ url: url.toString(), platform }] };
}

/** A path under the page's own path: Cachet is often installed below a site's root. */
function underBase(url: URL, path: string): string {
  return new URL(path, `${url.origin}${url.pathname.replace(/\/*$/, "/")}`).toString();
}

/** The exact endpoint the URL names, if it names one of these (suffix → parser). */
function exactEndpoint(url: URL, suffixes: Record<string, string>): PollPlan | null {
  const match = Object.entries(suffixes).find(([suffix]) => pointsAt(url, suffix));
  return match ? only(url, match[1]) : null;
}

const INCIDENTIO_FEEDS = { "/feed.rss": "incidentio-feed", "/feed.atom": "incidentio-feed", "/history.rss": "incidentio-feed", "/history.atom": "incidentio-feed" };

export const incidentioLive: LivePlatform = {
  name: "incidentio",
  description: "incident.io status page (base URL): the Statuspage-compatible incidents.json; feed.rss when that is off",
  docs: "https://docs.incident.io/status-pages/widget-api",
  plan(url) {
    const exact = exactEndpoint(url, { "/incidents.json": "incidentio-incidents", "/api/v1/summary": "incidentio-widget", ...INCIDENTIO_FEEDS });
    if (exact) return exact;
    const fallback: Endpoint[] = [{ url: atOrigin(url, "/feed.rss"), platform: "incidentio-feed" }];
    return { endpoints: [{ url: atOrigin(url, "/api/v2/incidents.json"), platform: "incidentio-incidents" }], fallback };
  },
};

export const instatusLive: LivePlatform = {
  name: "instatus",
  description: "Instatus status page (base URL): summary.json, the active incidents and maintenances, then v2/components.json",
  docs: "https://instatus.com/help/api/public-data",
  plan(url) {
    const exact = exactEndpoint(url, { "/summary.json": "instatus-summary", "/components.json": "instatus-components" });
    if (exact) return exact;
    return { endpoints: [{ url: atOrigin(url, "/summary.json"), platform: "instatus-summary" }], grid: [{ url: atOrigin(url, "/v2/components.json"), platform: "instatus-components" }] };
  },
};

export const betterstackLive: LivePlatform = {
  name: "betterstack",
  description: "Better Stack status page (base URL): index.json with reports and updates; feed.rss when that is off",
  docs: "https://betterstack.com/docs/uptime/status-pages/subscribing-to-status-updates/subscribing-to-api/",
  plan(url) {
    const exact = exactEndpoint(url, { "/index.json": "betterstack-index", "/feed.rss": "betterstack-rss" });
    if (exact) return exact;
    return {
      endpoints: [{ url: atOrigin(url, "/index.json"), platform: "betterstack-index" }],
      fallback: [{ url: atOrigin(url, "/feed.rss"), platform: "betterstack-rss" }],
    };
  },
};

/** Cachet 2 pages its lists, 20 to a page unless asked, with no upper bound; 3.x allows 100 at most. */
const CACHET_V2_COMPONENTS_PER_PAGE = 500;

export const cachetV2Live: LivePlatform = {
  name: "cachet-v2",
  description: "Cachet 2.x status page (base URL): API v1 incidents, the 50 newest, then the components and component groups",
  docs: "https://github.com/cachethq/docs/tree/2.x",
  plan(url) {
    if (pointsAt(url, "/api/v1/incidents")) return only(url, "cachet-v2");
    return {
      endpoints: [{ url: underBase(url, "api/v1/incidents?sort=id&order=desc&per_page=50"), platform: "cachet-v2" }],
      grid: [
        { url: underBase(url, `api/v1/components?per_page=${CACHET_V2_COMPONENTS_PER_PAGE}`), platform: "cachet-v2-components" },
        { url: underBase(url, `api/v1/components/groups?per_page=${CACHET_V2_COMPONENTS_PER_PAGE}`), platform: "cachet-v2-groups" },
      ],
    };
  },
};

export const cachetV3Live: LivePlatform = {
  name: "cachet-v3",
  description: "Cachet 3.x status page (base URL): /api/incidents with updates and components, the 50 newest, then /api/components",
  docs: "https://github.com/cachethq/docs/blob/3.x/src/api/introduction.md",
  plan(url) {
    if (pointsAt(url, "/api/incidents")) return only(url, "cachet-v3");
    return {
      endpoints: [{ url: underBase(url, "api/incidents?include=components,updates&sort=-id&per_page=50"), platform: "cachet-v3" }],
      grid: [{ url: underBase(url, "api/components?include=group&per_page=100"), platform: "cachet-v3-components" }],
    };
  },
};

export const azureLive: LivePlatform = {
  name: "azure",
  description: "Azure status (base URL https://azure.status.microsoft): the status RSS feed of current events",
  docs: "https://learn.microsoft.com/en-us/azure/service-health/azure-status-overview",
  plan(url) {
    if (pointsAt(url, "/feed/", "/feed", ".rss", ".xml")) return only(url, "azure-rss");
    const locale = /^\/([a-z]{2}-[a-z]{2})(?:\/|$)/i.exec(url.pathname)?.[1]?.toLowerCase() ?? "en-us";
    return only(atOrigin(url, `/${locale}/status/feed/`), "azure-rss");
  },
};

export const awsLive: LivePlatform = {
  name: "aws",
  description: "AWS Health Dashboard (base URL https://status.aws.amazon.com): the all-services RSS feed, read item by item",
  docs: "https://docs.aws.amazon.com/health/latest/ug/first-time-user.html",
  plan: (url) => only(pointsAt(url, ".rss") ? url : atOrigin(url, "/rss/all.rss"), "rss"),
};

export const rssLive: LivePlatform = {
  name: "rss",
  description: "Any RSS 2.0 or Atom feed at its exact URL: one incident per item",
  docs: "https://www.rssboard.org/rss-specification",
  plan: (url) => only(url, "rss"),
};

export const moreLivePlatforms: LivePlatform[] = [
  incidentioLive,
  instatusLive,
  betterstackLive,
  cachetV2Live,
  cachetV3Live,
  azureLive,
  rssLive,
  awsLive,
];
