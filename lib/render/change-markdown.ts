import { type Change, FIELD_LABELS, type ScalarChange } from "@/lib/change";
import { describeExtensionInDiff, extensionOfUpdate, updateChangeLabel } from "@/lib/derive/update-extension";
import { formatUtcSecond } from "@/lib/format";
import type { Component, IncidentUpdate, Postmortem } from "@/lib/incident";
import { humanizeValue, impactLabel, presenceLabel, statusLabel } from "@/lib/labels";
import { escapeMarkdownInline, fenceMarkdownBlock } from "@/lib/render/markdown-text";
import { renderTextEditMarkdown } from "@/lib/render/text-edit-markdown";

/**
 * One change of a version as Markdown a person reads: a short value as "Label: old → new" in
 * lib/labels' words, a text (an update, a postmortem, a long title) fenced, an edited one
 * through renderTextEditMarkdown. Every vendor value is escaped or fenced.
 */

/** A scalar value as a reader reads it: statuses, impacts and kinds in words, times to the second. */
export function scalarWords(field: ScalarChange["field"], value: string): string {
  switch (field) {
    case "status":
      return escapeMarkdownInline(statusLabel(value));
    case "impact":
      return escapeMarkdownInline(impactLabel(value));
    case "kind":
      return escapeMarkdownInline(humanizeValue(value));
    case "startedAt":
    case "resolvedAt":
    case "scheduledFor":
    case "scheduledUntil":
      return formatUtcSecond(value);
    default:
      return escapeMarkdownInline(value);
  }
}

function componentWords(list: readonly Component[] | null): string | null {
  if (list === null) return null;
  return list.length === 0 ? "none" : list.map((c) => escapeMarkdownInline(c.name)).join(", ");
}

/** "- Status: Investigating → Identified", "- Status: Investigating" when first stated, "- Status: no longer stated (was …)". */
function valueLine(label: string, before: string | null, after: string | null): string[] {
  if (before === null && after === null) return [];
  if (before === null) return [`- ${label}: ${after ?? ""}`];
  if (after === null) return [`- ${label}: no longer stated (was ${before})`];
  return [`- ${label}: ${before} → ${after}`];
}

/** "Investigating, 2026-03-01 10:02:00 UTC": an update's status and shown time. */
export function updateWhen(u: IncidentUpdate): string {
  return [u.status ? escapeMarkdownInline(statusLabel(u.status)) : null, u.displayAt ? formatUtcSecond(u.displayAt) : null].filter(Boolean).join(", ");
}

function updateMarkdown(before: IncidentUpdate | null, after: IncidentUpdate | null): string[] {
  const shown = after ?? before;
  if (!shown) return [];
  const when = updateWhen(shown);
  const label = updateChangeLabel(before, after);
  const lines = [`**${label}**${when ? ` (${when})` : ""}`, ""];
  if (!before || !after) return [...lines, fenceMarkdownBlock(shown.body), ""];
  const was = updateWhen(before);
  if (was !== when) lines.push(`Status and time: ${was || "not stated"} → ${when || "not stated"}`, "");
  if (before.body === after.body) return [...lines, "The text is unchanged:", "", fenceMarkdownBlock(after.body), ""];
  const extension = extensionOfUpdate(before, after);
  if (extension) return [...lines, describeExtensionInDiff(extension), "", ...renderTextEditMarkdown(before.body, after.body, { extended: true })];
  return [...lines, ...renderTextEditMarkdown(before.body, after.body)];
}

function published(p: Postmortem): string {
  return p.publishedAt ? ` (published ${formatUtcSecond(p.publishedAt)})` : "";
}

function postmortemMarkdown(before: Postmortem | null, after: Postmortem | null): string[] {
  if (!before && after) return [`**Postmortem published**${published(after)}`, "", fenceMarkdownBlock(after.body), ""];
  if (before && !after) return [`**Postmortem taken down**${published(before)}`, "", "Its text was:", "", fenceMarkdownBlock(before.body), ""];
  if (!before || !after) return [];
  const lines = [`**Postmortem edited**${published(after)}`, ""];
  if (before.publishedAt !== after.publishedAt) {
    lines.push(`Publication date: ${before.publishedAt ? formatUtcSecond(before.publishedAt) : "not stated"} → ${after.publishedAt ? formatUtcSecond(after.publishedAt) : "not stated"}`, "");
  }
  if (before.body === after.body) return lines;
  return [...lines, ...renderTextEditMarkdown(before.body, after.body)];
}

/** A title too long for one line of a list: fenced, as a text. */
const LONG_TITLE = 120;

function titleMarkdown(before: string | null, after: string | null): string[] {
  if ((before ?? "").length <= LONG_TITLE && (after ?? "").length <= LONG_TITLE) {
    return valueLine(FIELD_LABELS.title, before === null ? null : escapeMarkdownInline(before), after === null ? null : escapeMarkdownInline(after));
  }
  const lines = [`**${FIELD_LABELS.title}**`, ""];
  if (before !== null) lines.push("Before:", "", fenceMarkdownBlock(before), "");
  if (after !== null) lines.push(before === null ? "Stated as:" : "After:", "", fenceMarkdownBlock(after), "");
  return lines;
}

/** One change as Markdown lines: a list item for a value, a paragraph with fenced text for a text. */
export function renderChangeMarkdown(change: Change): string[] {
  switch (change.field) {
    case "update":
      return updateMarkdown(change.before, change.after);
    case "postmortem":
      return postmortemMarkdown(change.before, change.after);
    case "components":
      return valueLine(FIELD_LABELS.components, componentWords(change.before), componentWords(change.after));
    case "presence":
      return valueLine(FIELD_LABELS.presence, change.before && presenceLabel(change.before), change.after && presenceLabel(change.after));
    case "title":
      return titleMarkdown(change.before, change.after);
    default:
      return valueLine(
        FIELD_LABELS[change.field],
        change.before === null || change.before === "" ? null : scalarWords(change.field, change.before),
        change.after === null || change.after === "" ? null : scalarWords(change.field, change.after),
      );
  }
}
