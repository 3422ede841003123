/**
 * Atlassian Statuspage, polled live: the 50 most recent incidents and the scheduled maintenances
 * (https://developer.statuspage.io/, public API at <page>/api/v2/), then the component grid
 * (components.json), each postmortem from its incident page, and history.atom when the JSON API is
 * switched off.
 */
import { atOrigin, type Endpoint, type LivePlatform, pointsAt } from "@/scrapers/live/live-platform";

export const statuspageLive: LivePlatform = {
  name: "statuspage",
  description: "Atlassian Statuspage page (base URL): incidents.json, scheduled maintenances, components.json, postmortem pages; history.atom as fallback",
  docs: "https://developer.statuspage.io/",
  plan(url) {
    if (pointsAt(url, "/summary.json")) return { endpoints: [{ url: url.toString(), platform: "statuspage-summary" }] };
    if (pointsAt(url, "/incidents.json")) return { endpoints: [{ url: url.toString(), platform: "statuspage-incidents" }] };
    if (pointsAt(url, "/history.atom")) return { endpoints: [{ url: url.toString(), platform: "statuspage-atom" }] };
    if (pointsAt(url, "/history.rss")) return { endpoints: [{ url: url.toString(), platform: "statuspage-rss" }] };
    if (pointsAt(url, "/components.json")) return { endpoints: [{ url: url.toString(), platform: "statuspage-components" }] };
    return {
      endpoints: [
        { url: atOrigin(url, "/api/v2/incidents.json"), platform: "statuspage-incidents" },
        { url: atOrigin(url, "/api/v2/scheduled-maintenances.json"), platform: "statuspage-incidents" },
      ],
      fallback: [{ url: atOrigin(url, "/history.atom"), platform: "statuspage-atom-fallback" }],
      grid: [{ url: atOrigin(url, "/api/v2/components.json"), platform: "statuspage-components" }],
    };
  },
  followUpStatuses: ["postmortem"],
  followUps(incidents, url): Endpoint[] {
    return incidents
      .filter((i) => i.status === "postmortem")
      .map((i) => ({ url: atOrigin(url, `/incidents/${encodeURIComponent(i.id)}`), platform: "statuspage-incident-page" }));
  },
};
