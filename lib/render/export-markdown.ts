import { type Change, FIELD_LABELS } from "@/lib/change";
import { changeKindLabel, headingKindLabel } from "@/lib/change-kinds";
import type { ExportDocument, ExportIncident, ExportVersion, VersionExportDocument } from "@/lib/export-document";
import { formatDuration, formatUtcMinute, formatUtcSecond, msBetween } from "@/lib/format";
import type { Component, IncidentUpdate, Postmortem } from "@/lib/incident";
import { escapeMarkdownInline, fenceMarkdownBlock } from "@/lib/render/markdown-text";
import { MACHINE_SUMMARY_NOTICE } from "@/lib/summarize";
import { diffText, formatWordDiffPlain } from "@/lib/word-diff";

const NOT_PRESENT = "not present";

function inline(value: string | null): string {
  return value === null || value === "" ? NOT_PRESENT : escapeMarkdownInline(value);
}

function time(value: string | null): string {
  return value === null ? NOT_PRESENT : formatUtcSecond(value);
}

function components(list: readonly Component[] | null): string {
  return list === null || list.length === 0 ? NOT_PRESENT : list.map((c) => escapeMarkdownInline(c.name)).join(", ");
}

function describeUpdate(u: IncidentUpdate): string {
  const parts = [u.status ? escapeMarkdownInline(u.status) : null, u.displayAt ? formatUtcSecond(u.displayAt) : null];
  return parts.filter(Boolean).join(", ");
}

function block(label: string, text: string | null): string[] {
  return text === null ? [`${label}: ${NOT_PRESENT}`, ""] : [`${label}:`, "", fenceMarkdownBlock(text), ""];
}

/** One side of an update change; its status and time are repeated only where they differ from the heading's. */
function renderUpdateSide(label: string, u: IncidentUpdate | null, heading: string): string[] {
  if (u === null) return [`${label}: ${NOT_PRESENT}`, ""];
  const described = describeUpdate(u);
  const detail = described === heading ? "" : ` (${described || "no time given"})`;
  return [`${label}${detail}:`, "", fenceMarkdownBlock(u.body), ""];
}

/** For an edited text: the edit word by word, [-removed-]{+added+}. */
function wordChanges(before: string | null | undefined, after: string | null | undefined): string[] {
  if (!before || !after || before === after) return [];
  return ["Word changes:", "", fenceMarkdownBlock(formatWordDiffPlain(diffText(before, after))), ""];
}

function renderPostmortemSide(label: string, p: Postmortem | null): string[] {
  if (p === null) return [`${label}: ${NOT_PRESENT}`, ""];
  return [`${label} (published ${time(p.publishedAt)}):`, "", fenceMarkdownBlock(p.body), ""];
}

/** One field's Before / After, as Markdown lines. */
export function renderChangeMarkdown(change: Change): string[] {
  switch (change.field) {
    case "update": {
      const u = change.after ?? change.before;
      const described = u ? describeUpdate(u) : "";
      const heading = `**${FIELD_LABELS.update}${described ? ` (${described})` : ""}**`;
      return [
        heading,
        "",
        ...renderUpdateSide("Before", change.before, described),
        ...renderUpdateSide("After", change.after, described),
        ...wordChanges(change.before?.body, change.after?.body),
      ];
    }
    case "postmortem":
      return [
        `**${FIELD_LABELS.postmortem}**`,
        "",
        ...renderPostmortemSide("Before", change.before),
        ...renderPostmortemSide("After", change.after),
        ...wordChanges(change.before?.body, change.after?.body),
      ];
    case "components":
      return [`**${FIELD_LABELS.components}**`, "", `- Before: ${components(change.before)}`, `- After: ${components(change.after)}`, ""];
    case "presence":
      return [`**${FIELD_LABELS.presence}**`, "", `- Before: ${change.before ?? NOT_PRESENT}`, `- After: ${change.after ?? NOT_PRESENT}`, ""];
    case "startedAt":
    case "resolvedAt":
    case "scheduledFor":
    case "scheduledUntil":
      return [`**${FIELD_LABELS[change.field]}**`, "", `- Before: ${time(change.before)}`, `- After: ${time(change.after)}`, ""];
    case "title":
      if ((change.before ?? "").length > 120 || (change.after ?? "").length > 120) {
        return [`**${FIELD_LABELS.title}**`, "", ...block("Before", change.before), ...block("After", change.after)];
      }
      return [
        `**${FIELD_LABELS.title}**`,
        "",
        `- Before: ${inline(change.before)}`,
        `- After: ${inline(change.after)}`,
        "",
        ...wordChanges(change.before, change.after),
      ];
    default:
      return [`**${FIELD_LABELS[change.field]}**`, "", `- Before: ${inline(change.before)}`, `- After: ${inline(change.after)}`, ""];
  }
}

export function renderVersionMarkdown(version: ExportVersion): string[] {
  const kinds = version.kinds.map(changeKindLabel).join(", ") || "Other change";
  const lines = [
    `### Version ${version.seq}: ${kinds} (${formatUtcMinute(version.observedAt)})`,
    "",
    escapeMarkdownInline(version.summary),
    "",
    `_${MACHINE_SUMMARY_NOTICE}_`,
    "",
    "#### What changed",
    "",
  ];
  for (const change of version.changes) lines.push(...renderChangeMarkdown(change));
  return lines;
}

function renderIncidentMarkdown(incident: ExportIncident): string[] {
  const window =
    incident.startedAt && incident.resolvedAt
      ? ` (${formatDuration(msBetween(incident.startedAt, incident.resolvedAt))})`
      : "";
  const rows: Array<[string, string]> = [
    ["Incident id", inline(incident.id)],
    ["Kind", incident.kind],
    ["Impact", inline(incident.impact)],
    ["Status", inline(incident.status)],
    ["Started", time(incident.startedAt)],
    ["Resolved", `${time(incident.resolvedAt)}${window}`],
  ];
  if (incident.kind === "maintenance") rows.push(["Scheduled", `${time(incident.scheduledFor)} to ${time(incident.scheduledUntil)}`]);
  rows.push(
    ["Components", components(incident.components)],
    ["Live incident", inline(incident.url)],
    ["First archived", time(incident.firstSeenAt)],
    ["Last seen", time(incident.lastSeenAt)],
    ["Feed presence", incident.presence],
    ["Versions", String(incident.versions.length)],
  );
  const lines = [`## ${inline(incident.title)}`, "", "| Field | Value |", "|---|---|"];
  for (const [k, v] of rows) lines.push(`| ${k} | ${v} |`);
  lines.push("");
  for (const version of incident.versions) lines.push(...renderVersionMarkdown(version));
  return lines;
}

/** The readable history of a vendor's incidents: per version the summary and its Before / After. */
export function renderExportMarkdown(doc: ExportDocument): string {
  const lines = [
    `# ${inline(doc.vendor.name)}: incident history`,
    "",
    `Archived by Redline: ${doc.incidents.length} incident${doc.incidents.length === 1 ? "" : "s"}, every version with what changed.`,
    "",
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
