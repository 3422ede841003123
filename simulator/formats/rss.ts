/**
 * A plain RSS 2.0 status feed, as AWS serves /rss/all.rss and as any vendor may: one item per
 * incident or maintenance, dated when it began, its text the postmortem and updates newest first
 * with their time and status. A plain feed states no status, impact, components or resolution.
 */
import { htmlToText } from "@/lib/html-to-text";
import type { Incident } from "@/lib/incident";
import { deriveUpdateIds } from "@/lib/update-identity";
import { renderRss, RSS_CONTENT_TYPE } from "@/simulator/formats/rss-document";
import {
  escapeXml,
  lastChangeOf,
  rfc822,
  statusLabel,
  textToHtml,
  toSecond,
  type VendorView,
  type WireFormat,
} from "@/simulator/formats/wire-format";

/** "2026-03-04 10:05 UTC". */
const printed = (time: string): string => `${time.slice(0, 10)} ${time.slice(11, 16)} UTC`;

function paragraph(heading: string, time: string, body: string): string {
  return `<p><strong>${escapeXml(heading)}</strong> (${printed(time)})<br />${textToHtml(body)}</p>`;
}

function itemHtml(incident: Incident): string {
  const parts: string[] = [];
  if (incident.postmortem) parts.push(paragraph("Postmortem", incident.postmortem.publishedAt ?? lastChangeOf(incident), incident.postmortem.body));
  for (const u of [...incident.updates].reverse()) {
    parts.push(paragraph(statusLabel(u.status ?? "update"), u.displayAt ?? u.createdAt ?? lastChangeOf(incident), u.body));
  }
  return parts.join("");
}

const linkOf = (view: VendorView, incident: Incident): string => `${view.baseUrl}/incidents/${incident.id}`;
const dateOf = (incident: Incident): string => toSecond(incident.startedAt ?? incident.updates[0]?.createdAt ?? lastChangeOf(incident));

function readBack(incident: Incident, view: VendorView): Incident {
  const at = dateOf(incident);
  const body = htmlToText(itemHtml(incident));
  const [updateId = "~undated"] = deriveUpdateIds([at]);
  return {
    ...incident,
    id: linkOf(view, incident),
    kind: "incident",
    status: null,
    impact: null,
    url: linkOf(view, incident),
    startedAt: at,
    resolvedAt: null,
    scheduledFor: null,
    scheduledUntil: null,
    components: [],
    updates: body === "" ? [] : [{ id: updateId, status: null, body, createdAt: at, displayAt: at }],
    postmortem: null,
  };
}

export const rssFormat: WireFormat = {
  parser: "rss",
  contentType: RSS_CONTENT_TYPE,
  defaultPath: () => "/rss/all.rss",
  select: (view) => [...view.incidents],
  render(listed, view) {
    const items = listed.map((i) => ({
      title: i.title,
      link: linkOf(view, i),
      guid: linkOf(view, i),
      pubDate: rfc822(dateOf(i)),
      description: itemHtml(i),
    }));
    return renderRss({ title: `${view.name} Status`, link: view.baseUrl, description: `Status of all ${view.name} services` }, items);
  },
  readBack,
};
