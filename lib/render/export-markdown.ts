import type { Change } from "@/lib/change";
import { changeKindLabel, headingKindLabel } from "@/lib/change-kinds";
import { orderChanges } from "@/lib/change-order";
import type { ExportDocument, ExportIncident, ExportVersion, VersionExportDocument } from "@/lib/export-document";
import { formatDuration, formatUtcMinute, formatUtcSecond, msBetween } from "@/lib/format";
import type { Component } from "@/lib/incident";
import { humanizeValue, impactLabel, presenceLabel, statusLabel } from "@/lib/labels";
import { renderChangeMarkdown } from "@/lib/render/change-markdown";
import { renderComponentsMarkdown } from "@/lib/render/components-markdown";
import { escapeMarkdownInline } from "@/lib/render/markdown-text";
import { MACHINE_SUMMARY_NOTICE } from "@/lib/summarize";

const NOT_PRESENT = "not present";

function inline(value: string | null): string {
  return value === null || value === "" ? NOT_PRESENT : escapeMarkdownInline(value);
}

function time(value: string | null): string {
  return value === null ? NOT_PRESENT : formatUtcSecond(value);
}

function components(list: readonly Component[] | null): string {
  return list === null || list.length === 0 ? "none" : list.map((c) => escapeMarkdownInline(c.name)).join(", ");
}

/** The changes in the change page's order, values as a list and texts as paragraphs, a blank line wherever one meets the other. */
function renderChangesMarkdown(changes: readonly Change[], isFirst: boolean): string[] {
  const lines: string[] = [];
  for (const change of orderChanges(changes, { isFirst })) {
    const rendered = renderChangeMarkdown(change);
    const isItem = rendered[0]?.startsWith("- ") ?? false;
    const last = lines.at(-1);
    if (!isItem && last !== undefined && last !== "") lines.push("");
    lines.push(...rendered);
  }
  return [...lines, ""];
}

export function renderVersionMarkdown(version: ExportVersion): string[] {
  const kinds = version.kinds.map(changeKindLabel).join(", ") || "Other change";
  return [
    `### Version ${version.seq}: ${kinds} (${formatUtcMinute(version.observedAt)})`,
    "",
    escapeMarkdownInline(version.summary),
    "",
    `_${MACHINE_SUMMARY_NOTICE}_`,
    "",
    "#### What changed",
    "",
    ...renderChangesMarkdown(version.changes, version.kinds.includes("incident-new")),
  ];
}

function renderIncidentMarkdown(incident: ExportIncident): string[] {
  const window =
    incident.startedAt && incident.resolvedAt
      ? ` (${formatDuration(msBetween(incident.startedAt, incident.resolvedAt))})`
      : "";
  const rows: Array<[string, string]> = [
    ["Incident id", inline(incident.id)],
    ["Kind", escapeMarkdownInline(humanizeValue(incident.kind))],
    ["Impact", incident.impact === null ? "not stated" : escapeMarkdownInline(impactLabel(incident.impact))],
    ["Status", incident.status === null ? "not stated" : escapeMarkdownInline(statusLabel(incident.status))],
    ["Started", time(incident.startedAt)],
    ["Resolved", `${time(incident.resolvedAt)}${window}`],
  ];
  if (incident.kind === "maintenance") rows.push(["Scheduled", `${time(incident.scheduledFor)} to ${time(incident.scheduledUntil)}`]);
  rows.push(
    ["Components", components(incident.components)],
    ["Live incident", inline(incident.url)],
    ["First archived", time(incident.firstSeenAt)],
    ["Last seen", time(incident.lastSeenAt)],
    ["Feed presence", presenceLabel(incident.presence)],
    ["Versions", String(incident.versions.length)],
  );
  const lines = [`## ${inline(incident.title)}`, "", "| Field | Value |", "|---|---|"];
  for (const [k, v] of rows) lines.push(`| ${k} | ${v} |`);
  lines.push("");
  for (const version of incident.versions) lines.push(...renderVersionMarkdown(version));
  return lines;
}

/**
 * The readable history of a vendor: its components and quiet degradations (a vendor's export),
 * then its incidents, per version the summary and its Before / After.
 */
export function renderExportMarkdown(doc: ExportDocument): string {
  const lines = [
    `# ${inline(doc.vendor.name)}: incident history`,
    "",
    `Archived by Redline: ${doc.incidents.length} incident${doc.incidents.length === 1 ? "" : "s"}, every version with what changed.`,
    "",
    ...renderComponentsMarkdown(doc.components, doc.quietDegradations),
  ];
  for (const incident of doc.incidents) lines.push(...renderIncidentMarkdown(incident));
  return `${lines.join("\n").replace(/\n{3,}/g, "\n\n").trimEnd()}\n`;
}

/** One change: "<Vendor>: <Kind>: <title>", its summary and its Before / After. */
export function renderVersionExportMarkdown(doc: VersionExportDocument): string {
  const { incident, version } = doc;
  const lines = [
    `# ${inline(doc.vendor.name)}: ${headingKindLabel(version.kinds, incident)}: ${inline(incident.title)}`,
    "",
    `Incident ${inline(incident.id)}, version ${version.seq}, observed ${formatUtcMinute(version.observedAt)}. Live incident: ${inline(incident.url)}.`,
    "",
    ...renderVersionMarkdown(version),
  ];
  return `${lines.join("\n").replace(/\n{3,}/g, "\n\n").trimEnd()}\n`;
}
