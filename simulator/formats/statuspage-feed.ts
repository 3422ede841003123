/**
 * Statuspage history feeds, /history.atom and /history.rss: the 25 most recent incidents and
 * maintenances, each entry's updates (postmortem first, then newest first) as escaped HTML with
 * times printed "Mon D, HH:MM UTC", without a year, as Statuspage prints them.
 */
import type { Incident, IncidentUpdate } from "@/lib/incident";
import { deriveUpdateIds } from "@/lib/update-identity";
import { integerBelow } from "@/simulator/seeded";
import {
  escapeXml,
  lastChangeOf,
  rfc822,
  statusLabel,
  textToHtml,
  toMinute,
  type VendorView,
  type WireFormat,
} from "@/simulator/formats/wire-format";

const RECENT_LIMIT = 25;
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const MAINTENANCE_STATUSES = new Set(["scheduled", "in_progress", "verifying", "completed"]);
const CLOSING_STATUSES = new Set(["resolved", "completed"]);

/** "Mar <var data-var='date'> 4</var>, <var data-var='time'>11:00</var> UTC", day padded as Statuspage pads it. */
function stamp(time: string): string {
  const d = new Date(time);
  const day = String(d.getUTCDate()).padStart(2, " ");
  const clock = time.slice(11, 16);
  return `${MONTHS[d.getUTCMonth()] ?? ""} <var data-var='date'>${day}</var>, <var data-var='time'>${clock}</var> UTC`;
}

function updateParagraph(status: string, time: string, body: string): string {
  return `<p><small>${stamp(time)}</small><br><strong>${escapeXml(statusLabel(status))}</strong> - ${textToHtml(body)}</p>`;
}

/** The entry's HTML: the scheduled window for a maintenance, then postmortem and updates, newest first. */
export function entryHtml(incident: Incident): string {
  const parts: string[] = [];
  if (incident.scheduledFor && incident.scheduledUntil) {
    parts.push(`<p><strong>THIS IS A SCHEDULED EVENT ${stamp(incident.scheduledFor)} &nbsp;-&nbsp; ${stamp(incident.scheduledUntil)}</strong></p>`);
  }
  if (incident.postmortem) {
    parts.push(updateParagraph("postmortem", incident.postmortem.publishedAt ?? lastChangeOf(incident), incident.postmortem.body));
  }
  for (const u of [...incident.updates].reverse()) {
    parts.push(updateParagraph(u.status ?? "update", u.displayAt ?? u.createdAt ?? lastChangeOf(incident), u.body));
  }
  return parts.join("");
}

/** Whole seconds with "Z", as the feeds print their own dates. */
function feedTime(time: string): string {
  return time.replace(/\.\d{3}Z$/, "Z");
}

function createdOf(incident: Incident): string {
  return incident.updates[0]?.createdAt ?? incident.startedAt ?? lastChangeOf(incident);
}

function renderAtom(listed: readonly Incident[], view: VendorView): string {
  const host = new URL(view.baseUrl).hostname;
  const updated = listed.map(lastChangeOf).sort().at(-1);
  const entries = listed.map(
    (i) =>
      `  <entry>\n    <id>tag:${host},2005:Incident/${10_000_000 + integerBelow(89_999_999, i.id)}</id>\n` +
      `    <published>${feedTime(createdOf(i))}</published>\n    <updated>${feedTime(lastChangeOf(i))}</updated>\n` +
      `    <link rel="alternate" type="text/html" href="${escapeXml(i.url ?? view.baseUrl)}"/>\n` +
      `    <title>${escapeXml(i.title)}</title>\n    <content type="html">${escapeXml(entryHtml(i))}</content>\n  </entry>\n`,
  );
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<feed xml:lang="en-US" xmlns="http://www.w3.org/2005/Atom">\n` +
    `  <id>tag:${host},2005:/history</id>\n  <link rel="alternate" type="text/html" href="${escapeXml(view.baseUrl)}"/>\n` +
    `  <link rel="self" type="application/atom+xml" href="${escapeXml(view.baseUrl)}/history.atom"/>\n` +
    `  <title>${escapeXml(view.name)} Status - Incident History</title>\n` +
    (updated ? `  <updated>${feedTime(updated)}</updated>\n` : "") +
    `${entries.join("")}</feed>\n`
  );
}

function renderRss(listed: readonly Incident[], view: VendorView): string {
  const items = listed.map(
    (i) =>
      `    <item>\n      <title>${escapeXml(i.title)}</title>\n      <description>${escapeXml(entryHtml(i))}</description>\n` +
      `      <pubDate>${rfc822(lastChangeOf(i))}</pubDate>\n      <link>${escapeXml(i.url ?? view.baseUrl)}</link>\n` +
      `      <guid>${escapeXml(i.url ?? view.baseUrl)}</guid>\n    </item>\n`,
  );
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/">\n  <channel>\n` +
    `    <title>${escapeXml(view.name)} Status - Incident History</title>\n    <link>${escapeXml(view.baseUrl)}</link>\n` +
    `    <description>Statuspage</description>\n${items.join("")}  </channel>\n</rss>\n`
  );
}

/** What the feed parser derives: minute times, ids from time and status, no impact or components. */
function readBackFeed(incident: Incident): Incident {
  const posted = incident.updates.map((u) => ({ ...u, at: toMinute(u.displayAt ?? u.createdAt ?? "") }));
  const ids = deriveUpdateIds(posted.map((u) => `${u.at}|${u.status ?? "update"}`));
  const updates: IncidentUpdate[] = posted.map((u, i) => ({
    id: ids[i] ?? u.at,
    status: u.status ?? "update",
    body: u.body,
    createdAt: null,
    displayAt: u.at,
  }));
  const maintenance = updates.some((u) => u.status !== null && MAINTENANCE_STATUSES.has(u.status));
  const newestFirst = [...updates].reverse();
  const status = incident.postmortem ? "postmortem" : (newestFirst[0]?.status ?? null);
  const over = status === "postmortem" || (status !== null && CLOSING_STATUSES.has(status));
  const closing = over ? newestFirst.find((u) => u.status !== null && CLOSING_STATUSES.has(u.status)) : undefined;
  return {
    ...incident,
    kind: maintenance ? "maintenance" : "incident",
    status,
    impact: maintenance ? "maintenance" : null,
    startedAt: updates.map((u) => u.displayAt ?? "").sort()[0] ?? null,
    resolvedAt: closing?.displayAt ?? null,
    scheduledFor: null,
    scheduledUntil: null,
    components: [],
    updates,
    postmortem: incident.postmortem
      ? { body: incident.postmortem.body, publishedAt: toMinute(incident.postmortem.publishedAt ?? lastChangeOf(incident)) }
      : null,
  };
}

const selectRecent = (view: VendorView): Incident[] => view.incidents.slice(0, RECENT_LIMIT);

export const statuspageAtomFormat: WireFormat = {
  parser: "statuspage-atom",
  contentType: "application/atom+xml; charset=utf-8",
  defaultPath: () => "/history.atom",
  select: selectRecent,
  render: renderAtom,
  readBack: readBackFeed,
};

export const statuspageRssFormat: WireFormat = {
  parser: "statuspage-rss",
  contentType: "application/rss+xml; charset=utf-8",
  defaultPath: () => "/history.rss",
  select: selectRecent,
  render: renderRss,
  readBack: readBackFeed,
};
