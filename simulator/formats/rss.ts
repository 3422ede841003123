/**
 * A plain RSS 2.0 status feed as AWS serves /rss/all.rss (the real one: corpus
 * samples/aws-rss): one item per posted update, never one per incident. Each item is titled with
 * the state the update reports ("Service impact: …", "Informational message: …", "Service is
 * operating normally: [RESOLVED] …"), links to the dashboard, and has a guid that is no URL of
 * the item, `<dashboard>/#<event>_<epoch seconds>`, fixed when the update is posted. So Redline's
 * generic feed parser reads every post as an incident of its own with one update, and an item's
 * text changes only when the vendor edits that post. AWS did append a post-event summary to its
 * last update days later (corpus aws-data-json-2021-12): a postmortem is served that way, as a
 * paragraph added to the item of the last update. A plain feed states no status, impact,
 * components or resolution.
 */
import { htmlToText } from "@/lib/html-to-text";
import type { Incident, IncidentUpdate } from "@/lib/incident";
import { deriveUpdateIds } from "@/lib/update-identity";
import { renderRss, RSS_CONTENT_TYPE, type RssItem } from "@/simulator/formats/rss-document";
import { lastChangeOf, rfc822, textToHtml, toSecond, type VendorView, type WireFormat } from "@/simulator/formats/wire-format";

/** One item of the feed: a posted update. */
interface FeedPost {
  guid: string;
  title: string;
  /** When it was posted, to the second (ISO). */
  at: string;
  /** HTML. */
  html: string;
  link: string;
}

/**
 * Where the guids point: a name of the vendor's own, without the port the simulator happens to
 * listen on, so an item is the same item from one run to the next (AWS: https://status.aws.amazon.com/).
 */
const dashboardOf = (view: VendorView): string => `https://status.${view.vendor}.example/`;

/** The state the post reports, as AWS titles it: fixed with the post (AWS does not retitle old items). */
function titleOf(incident: Incident, update: IncidentUpdate): string {
  if (update.status === "resolved" || update.status === "completed" || update.status === "postmortem") {
    return `Service is operating normally: [RESOLVED] ${incident.title}`;
  }
  return `${incident.kind === "maintenance" ? "Informational message" : "Service impact"}: ${incident.title}`;
}

function postsOf(incident: Incident, view: VendorView): FeedPost[] {
  const last = incident.updates.at(-1);
  return incident.updates.map((u) => {
    const posted = toSecond(u.createdAt ?? u.displayAt ?? lastChangeOf(incident));
    let html = `<p>${textToHtml(u.body)}</p>`;
    if (u === last && incident.postmortem) html += `<p>${textToHtml(incident.postmortem.body)}</p>`;
    return {
      guid: `${dashboardOf(view)}#${incident.id}_${Date.parse(posted) / 1000}`,
      title: titleOf(incident, u),
      at: toSecond(u.displayAt ?? posted),
      html,
      link: `${view.baseUrl}/`,
    };
  });
}

function readBack(incident: Incident, view: VendorView): Incident[] {
  return postsOf(incident, view).map((post) => {
    const body = htmlToText(post.html);
    const [updateId = "~undated"] = deriveUpdateIds([post.at]);
    return {
      vendor: incident.vendor,
      id: post.guid,
      kind: "incident",
      title: post.title,
      status: null,
      impact: null,
      url: post.link,
      startedAt: post.at,
      resolvedAt: null,
      scheduledFor: null,
      scheduledUntil: null,
      components: [],
      updates: body === "" ? [] : [{ id: updateId, status: null, body, createdAt: post.at, displayAt: post.at }],
      postmortem: null,
    };
  });
}

const newestFirst = (a: RssItem & { at: string }, b: RssItem & { at: string }): number => (a.at < b.at ? 1 : a.at > b.at ? -1 : a.guid < b.guid ? -1 : 1);

export const rssFormat: WireFormat = {
  parser: "rss",
  contentType: RSS_CONTENT_TYPE,
  defaultPath: () => "/rss/all.rss",
  select: (view) => [...view.incidents],
  render(listed, view) {
    const items = listed
      .flatMap((i) => postsOf(i, view))
      .map((p) => ({ title: p.title, link: p.link, guid: p.guid, guidIsPermaLink: false, pubDate: rfc822(p.at), description: p.html, at: p.at }))
      .sort(newestFirst);
    return renderRss(
      { title: `${view.name} Service Status`, link: `${view.baseUrl}/`, description: `Receive the most recent update for events affecting the overall availability of ${view.name}.` },
      items,
    );
  },
  readBack,
};
