/**
 * Azure status RSS, /en-us/status/feed/: the open incidents only (an empty channel when all is
 * well; maintenance is not announced there). Each item is "Service - Region - Status", keyed by a
 * tracking ID, with the service and region as <category>, one narrative Azure rewrites with every
 * update, the status page itself as link, and the last update's time as pubDate with a bare "Z".
 */
import { htmlToText } from "@/lib/html-to-text";
import type { Incident } from "@/lib/incident";
import { deriveUpdateIds } from "@/lib/update-identity";
import { codeOf, integerBelow } from "@/simulator/seeded";
import { renderRss, RSS_CONTENT_TYPE } from "@/simulator/formats/rss-document";
import {
  escapeXml,
  isOver,
  lastChangeOf,
  rfc822,
  statusLabel,
  textToHtml,
  toSecond,
  type VendorView,
  type WireFormat,
} from "@/simulator/formats/wire-format";

const REGIONS = ["East US", "West Europe", "Southeast Asia", "UK South", "Central US", "Japan East"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "2TWN-VT0", as Azure's tracking IDs look. */
function trackingIdOf(incident: Incident): string {
  const code = codeOf(7, incident.id, "azure-tracking").toUpperCase();
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

function regionOf(incident: Incident): string {
  return REGIONS[integerBelow(REGIONS.length, incident.id, "azure-region")] ?? "East US";
}

const serviceOf = (incident: Incident): string => incident.components[0]?.name ?? "Azure";
const titleOf = (incident: Incident): string => `${serviceOf(incident)} - ${regionOf(incident)} - ${statusLabel(incident.status ?? "investigating")}`;
const statusPage = (view: VendorView): string => `${view.baseUrl}/en-us/status`;

/** "09:40 UTC on 02 Mar 2026". */
function spoken(time: string): string {
  const d = new Date(time);
  return `${time.slice(11, 16)} UTC on ${String(d.getUTCDate()).padStart(2, "0")} ${MONTHS[d.getUTCMonth()] ?? ""} ${d.getUTCFullYear()}`;
}

function updatedAt(incident: Incident): string {
  const latest = incident.updates.at(-1);
  return toSecond(latest?.displayAt ?? latest?.createdAt ?? lastChangeOf(incident));
}

function narrativeHtml(incident: Incident): string {
  const started = incident.startedAt ?? lastChangeOf(incident);
  return (
    `<p><strong>Impact Statement:</strong> Starting at ${spoken(started)}, customers using ${escapeXml(serviceOf(incident))} in ${escapeXml(regionOf(incident))} ` +
    `may experience ${escapeXml(incident.title.charAt(0).toLowerCase() + incident.title.slice(1))}.</p>` +
    `<p><strong>Current Status:</strong> ${textToHtml(incident.updates.at(-1)?.body ?? "")}</p>` +
    `<p>This message was last updated at ${spoken(updatedAt(incident))}. Tracking ID: ${trackingIdOf(incident)}</p>`
  );
}

function readBack(incident: Incident, view: VendorView): Incident {
  const at = updatedAt(incident);
  const [updateId = "~undated"] = deriveUpdateIds([at]);
  return {
    ...incident,
    id: trackingIdOf(incident),
    kind: "incident",
    title: titleOf(incident),
    // Only open incidents are listed, and their titles end in an open status.
    status: "active",
    impact: null,
    url: statusPage(view),
    startedAt: null,
    resolvedAt: null,
    scheduledFor: null,
    scheduledUntil: null,
    components: [...incident.components.map((c) => c.name), regionOf(incident)].map((name) => ({ id: name, name })),
    updates: [{ id: updateId, status: null, body: htmlToText(narrativeHtml(incident)), createdAt: at, displayAt: at }],
    postmortem: null,
  };
}

export const azureRssFormat: WireFormat = {
  parser: "azure-rss",
  contentType: RSS_CONTENT_TYPE,
  defaultPath: () => "/en-us/status/feed/",
  select: (view) => view.incidents.filter((i) => i.kind === "incident" && !isOver(i)),
  render(listed, view) {
    const items = listed.map((i) => ({
      title: titleOf(i),
      link: statusPage(view),
      guid: trackingIdOf(i),
      guidIsPermaLink: false,
      categories: [...i.components.map((c) => c.name), regionOf(i)],
      pubDate: rfc822(updatedAt(i), "Z"),
      description: narrativeHtml(i),
    }));
    return renderRss({ title: "Azure Status", link: statusPage(view), description: "Azure Status" }, items);
  },
  readBack,
};
