import sanitizeHtml from "sanitize-html";
import { type Change, FIELD_LABELS, type UpdateChange } from "@/lib/change";
import { formatUtcSecond } from "@/lib/format";
import { impactLabel, presenceLabel, statusLabel } from "@/lib/labels";
import type { Component, IncidentUpdate, Postmortem } from "@/lib/incident";
import { orderChanges } from "@/lib/change-order";
import { describePostmortemUpdate, postmortemUpdateChange } from "@/lib/postmortem-update";
import { type DiffHunk, diffHunks } from "@/lib/diff-hunks";
import { renderVendorMarkdown as renderUpdateMarkdown, renderVendorMarkdownAt, vendorMarkdownToText } from "@/lib/render/vendor-markdown";
import { type DiffPiece, isRewrite } from "@/lib/word-diff";

/**
 * A change as a self-contained HTML fragment for feed readers: the machine summary, then each
 * field's change in the change page's order, Before / After or, for an edited text, its changed
 * passages word by word. Vendor Markdown goes through the pages' sanitizer, and the whole
 * fragment is sanitized once more so nothing from a status page can run or load in a reader.
 */
const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

const NOT_PRESENT = "<em>not present</em>";

function piece(p: DiffPiece): string {
  if (p.kind === "removed") return `<del>${escapeHtml(p.text)}</del>`;
  if (p.kind === "added") return `<ins>${escapeHtml(p.text)}</ins>`;
  return escapeHtml(p.text);
}

function hunk(h: DiffHunk): string {
  if (h.kind === "skipped") return `<p><em>… ${h.count} unchanged ${h.count === 1 ? "line" : "lines"} …</em></p>`;
  return h.lines.filter((l) => l.pieces.length > 0).map((l) => `<p>${l.pieces.map(piece).join("")}</p>`).join("");
}

/** An edited vendor text once, its changes marked, compared as read (Markdown syntax gone). */
function textDiff(before: string, after: string): string {
  return diffHunks(vendorMarkdownToText(before), vendorMarkdownToText(after)).map(hunk).join("");
}

function components(list: readonly Component[] | null): string {
  return list === null || list.length === 0 ? NOT_PRESENT : escapeHtml(list.map((c) => c.name).join(", "));
}

function updateHeading(u: IncidentUpdate | null): string {
  if (!u) return "";
  return [u.status ? statusLabel(u.status) : null, u.displayAt ? formatUtcSecond(u.displayAt) : null].filter(Boolean).join(", ");
}

/** One side of an update; its status and time only where they differ from the heading, which says them once. */
function update(u: IncidentUpdate | null, heading: string): string {
  if (!u) return NOT_PRESENT;
  const own = updateHeading(u);
  return `${own !== heading ? `<p><small>${escapeHtml(own || "No status or time given")}</small></p>` : ""}${renderUpdateMarkdown(u.body)}`;
}

function postmortem(p: Postmortem | null): string {
  if (!p) return NOT_PRESENT;
  const date = p.publishedAt ? `<p><small>Published ${escapeHtml(formatUtcSecond(p.publishedAt))}</small></p>` : "";
  return `${date}${renderVendorMarkdownAt(p.body, 4)}`;
}

function scalar(field: Change["field"], value: string | null): string {
  if (value === null || value === "") return NOT_PRESENT;
  if (field === "startedAt" || field === "resolvedAt" || field === "scheduledFor" || field === "scheduledUntil") return escapeHtml(formatUtcSecond(value));
  if (field === "url") return `<code>${escapeHtml(value)}</code>`;
  if (field === "status") return escapeHtml(statusLabel(value));
  if (field === "impact") return escapeHtml(impactLabel(value));
  return escapeHtml(value.replace(/_/g, " "));
}

type Rows = { before: string | null; after: string | null; words: string | null };

/** An edited text once with its words marked, or, rewritten, both whole: marks would only paint it. */
function edited(before: string, after: string, whole: (side: "before" | "after") => string): Rows {
  if (isRewrite(vendorMarkdownToText(before), vendorMarkdownToText(after))) return { before: whole("before"), after: whole("after"), words: null };
  return { before: null, after: null, words: textDiff(before, after) };
}

function sides(change: Change): Rows {
  switch (change.field) {
    case "update": {
      const heading = updateHeading(change.after ?? change.before);
      return change.before && change.after && change.before.body !== change.after.body
        ? edited(change.before.body, change.after.body, (side) => update(change[side], heading))
        : { before: update(change.before, heading), after: update(change.after, heading), words: null };
    }
    case "postmortem":
      return change.before && change.after && change.before.body !== change.after.body
        ? edited(change.before.body, change.after.body, (side) => postmortem(change[side]))
        : { before: postmortem(change.before), after: postmortem(change.after), words: null };
    case "components":
      return { before: components(change.before), after: components(change.after), words: null };
    case "presence":
      return { before: change.before ? escapeHtml(presenceLabel(change.before)) : NOT_PRESENT, after: change.after ? escapeHtml(presenceLabel(change.after)) : NOT_PRESENT, words: null };
    default:
      return { before: scalar(change.field, change.before), after: scalar(change.field, change.after), words: null };
  }
}

function row(label: string, html: string | null): string {
  return html === null ? "" : `<tr><th scope="row">${label}</th><td>${html}</td></tr>`;
}

function blockHeading(change: Change): string {
  const heading = change.field === "update" ? updateHeading(change.after ?? change.before) : "";
  return heading ? `${FIELD_LABELS.update} (${heading})` : FIELD_LABELS[change.field];
}

function block(change: Change, asUpdate: UpdateChange | null): string {
  const { before, after, words } = sides(change);
  const note = change.field === "postmortem" && asUpdate ? `<p><small>${escapeHtml(describePostmortemUpdate(asUpdate))}</small></p>` : "";
  return `<h3>${escapeHtml(blockHeading(change))}</h3>${note}<table><tbody>${row("Before", before)}${row("After", after)}${row("Word changes", words)}</tbody></table>`;
}

const FEED_TAGS = [
  "p", "br", "hr", "h3", "h4", "h5", "h6", "strong", "em", "s", "span", "small", "del", "ins", "code", "pre", "blockquote",
  "ul", "ol", "li", "a", "table", "thead", "tbody", "tr", "th", "td",
];

/** The summary, marked as machine-written, and every changed field, most significant first; a postmortem posted as an update too, once. */
export function renderChangeHtml(input: { summary: string; changes: readonly Change[]; link: string; isFirst?: boolean }): string {
  const asUpdate = postmortemUpdateChange(input.changes);
  const html =
    `<p>${escapeHtml(input.summary)}</p>` +
    `<p><small>Machine-written from the diff below; check the diff before relying on it.</small></p>` +
    orderChanges(input.changes, { isFirst: input.isFirst ?? false })
      .filter((c) => c !== asUpdate)
      .map((c) => block(c, asUpdate))
      .join("") +
    `<p><a href="${escapeHtml(input.link)}">This change in the archive</a></p>`;
  return sanitizeHtml(html, {
    allowedTags: FEED_TAGS,
    allowedAttributes: { a: ["href", "rel"], th: ["scope"] },
    allowedSchemes: ["http", "https"],
    allowProtocolRelative: false,
    disallowedTagsMode: "discard",
  });
}
