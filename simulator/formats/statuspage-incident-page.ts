/**
 * A Statuspage incident page, /incidents/<code>, in the current markup (div.update-row with an
 * h2.update-title, span.whitespace-pre-wrap bodies, "Posted" timestamps with <var data-var>),
 * the published postmortem as the first row, titled "Postmortem", its paragraphs in a
 * div.markdown-display, as Statuspage renders the postmortem's Markdown.
 */
import type { Incident } from "@/lib/incident";
import { escapeXml, lastChangeOf, statusLabel, toSecond, type VendorView, type WireFormat } from "@/simulator/formats/wire-format";

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const PAGE_PATH = /\/incidents\/([a-z0-9]+)$/;

function posted(time: string): string {
  const d = new Date(time);
  const pad = (n: number) => String(n).padStart(2, "0");
  const unix = Math.floor(d.getTime() / 1000) * 1000;
  return (
    `Posted <span class="ago" data-datetime-unix="${unix}"></span>${MONTHS[d.getUTCMonth()] ?? ""} ` +
    `<var data-var="date">${pad(d.getUTCDate())}</var>, <var data-var="year">${d.getUTCFullYear()}</var> - ` +
    `<var data-var="time">${time.slice(11, 16)}</var> UTC`
  );
}

function updateRow(title: string, bodyHtml: string, time: string): string {
  return `
        <div class="row update-row">
          <h2 class="update-title span3 font-large">
            ${escapeXml(title)}
          </h2>
          <div class="update-container span9">
            <div class="update-body font-regular">
              ${bodyHtml}
            </div>
            <div class="update-timestamp font-small color-secondary">
              ${posted(time)}
            </div>
          </div>
        </div>`;
}

function postmortemHtml(body: string): string {
  const paragraphs = body.split(/\n{2,}/).map((p) => `<p>${escapeXml(p).replace(/\n/g, "<br>")}</p>`);
  return `<div class="markdown-display">${paragraphs.join("")}</div>`;
}

export function renderIncidentPage(incident: Incident, view: VendorView): string {
  const rows: string[] = [];
  if (incident.postmortem) {
    rows.push(updateRow("Postmortem", postmortemHtml(incident.postmortem.body), incident.postmortem.publishedAt ?? lastChangeOf(incident)));
  }
  for (const u of [...incident.updates].reverse()) {
    const body = `<span class="whitespace-pre-wrap">${escapeXml(u.body)}</span>`;
    rows.push(updateRow(statusLabel(u.status ?? "update"), body, u.displayAt ?? u.createdAt ?? lastChangeOf(incident)));
  }
  const what = incident.kind === "maintenance" ? "scheduled maintenance" : "incident";
  const affected = incident.components.map((c) => escapeXml(c.name)).join(", ");
  const name = escapeXml(view.name);
  return `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <title>${name} Status - ${escapeXml(incident.title)}</title>
    <meta name="description" content="${name}'s Status Page - ${escapeXml(incident.title)}.">
    <meta name="viewport" content="width=device-width, initial-scale=1.0">
    <meta property="og:type" content="article">
    <meta property="og:url" content="${escapeXml(incident.url ?? `${view.baseUrl}/incidents/${incident.id}`)}">
    <meta property="og:title" content="${escapeXml(incident.title)}">
    <link rel="alternate" type="application/atom+xml" href="${escapeXml(view.baseUrl)}/history.atom">
  </head>
  <body class="status incident status-none">
<div class="layout-content status status-incident">
  <div class="container">
    <div class="page-title">
      <h1 class="color-primary incident-name whitespace-pre-wrap impact-${incident.impact ?? "none"}">${escapeXml(incident.title)}</h1>
      <div class="font-largest color-secondary subheader ">
            ${incident.kind === "maintenance" ? "Scheduled Maintenance" : "Incident"}
          Report for <a class="color-secondary" href="/">${name}</a>
      </div>
    </div>
    <div class="incident-updates-container">
      <!-- postmortem if it's published -->
      <!-- incident updates in reverse order -->${rows.join("")}
      <!-- affected components -->
        <div class="components-affected font-small color-secondary border-color">
          This ${what} affected: ${affected}.
        </div>
    </div>
    <div class="page-footer border-color font-small">
      <a href="/"><span style="font-family:arial">&#8592;</span> Current Status</a>
      <span class="color-secondary powered-by"><a class="color-secondary" href="https://www.atlassian.com/software/statuspage">Powered by Atlassian Statuspage</a></span>
    </div>
  </div>
</div>
  </body>
</html>
`;
}

/** What the page shows: its updates and postmortem to the second (the page prints minutes, the markup holds seconds). */
function readBackPage(incident: Incident): Incident {
  return {
    ...incident,
    postmortem: incident.postmortem
      ? { body: incident.postmortem.body, publishedAt: toSecond(incident.postmortem.publishedAt ?? lastChangeOf(incident)) }
      : null,
  };
}

export const statuspageIncidentPageFormat: WireFormat = {
  parser: "statuspage-incident-page",
  contentType: "text/html; charset=utf-8",
  defaultPath: (view) => `/incidents/${view.incidents.find((i) => i.postmortem !== null)?.id ?? "none"}`,
  select(view, path) {
    const id = PAGE_PATH.exec(path)?.[1];
    const incident = view.incidents.find((i) => i.id === id);
    return incident ? [incident] : null;
  },
  render: (listed, view) => listed.map((i) => renderIncidentPage(i, view)).join(""),
  readBack: readBackPage,
};
