import sanitizeHtml from "sanitize-html";
import { type Change, FIELD_LABELS } from "@/lib/change";
import { formatUtcSecond } from "@/lib/format";
import { impactLabel, presenceLabel, statusLabel } from "@/lib/labels";
import type { Component, IncidentUpdate, Postmortem } from "@/lib/incident";
import { renderVendorMarkdown, renderVendorMarkdownAt } from "@/lib/render/vendor-markdown";
import { diffText } from "@/lib/word-diff";

/**
 * A change as a self-contained HTML fragment for feed readers: the machine summary, then each
 * field's Before / After, edited texts word by word. Vendor fields are escaped here, update and
 * postmortem Markdown goes through the same sanitizer as the pages, and the whole fragment is sanitized
 * once more so nothing from a status page can carry script or load a resource in a reader.
 */
const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

const NOT_PRESENT = "<em>not present</em>";

function textDiff(before: string, after: string): string {
  const words = diffText(before, after)
    .map((s) => (s.kind === "same" ? escapeHtml(s.text) : s.kind === "removed" ? `<del>${escapeHtml(s.text)}</del>` : `<ins>${escapeHtml(s.text)}</ins>`))
    .join("");
  return `<p>${words}</p>`;
}

function components(list: readonly Component[] | null): string {
  return list === null || list.length === 0 ? NOT_PRESENT : escapeHtml(list.map((c) => c.name).join(", "));
}

function update(u: IncidentUpdate | null): string {
  if (!u) return NOT_PRESENT;
  const heading = [u.status?.replace(/_/g, " "), u.displayAt ? formatUtcSecond(u.displayAt) : null].filter(Boolean).join(", ");
  return `${heading ? `<p><small>${escapeHtml(heading)}</small></p>` : ""}${renderVendorMarkdown(u.body)}`;
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

function sides(change: Change): { before: string; after: string; words: string | null } {
  switch (change.field) {
    case "update": {
      const edited = change.before && change.after && change.before.body !== change.after.body;
      return { before: update(change.before), after: update(change.after), words: edited && change.before && change.after ? textDiff(change.before.body, change.after.body) : null };
    }
    case "postmortem": {
      const edited = change.before && change.after && change.before.body !== change.after.body;
      return { before: postmortem(change.before), after: postmortem(change.after), words: edited && change.before && change.after ? textDiff(change.before.body, change.after.body) : null };
    }
    case "components":
      return { before: components(change.before), after: components(change.after), words: null };
    case "presence":
      return { before: change.before ? escapeHtml(presenceLabel(change.before)) : NOT_PRESENT, after: change.after ? escapeHtml(presenceLabel(change.after)) : NOT_PRESENT, words: null };
    default:
      return {
        before: scalar(change.field, change.before),
        after: scalar(change.field, change.after),
        words: change.field === "title" && change.before && change.after ? textDiff(change.before, change.after) : null,
      };
  }
}

function block(change: Change): string {
  const { before, after, words } = sides(change);
  return (
    `<h3>${escapeHtml(FIELD_LABELS[change.field])}</h3>` +
    `<table><tbody><tr><th scope="row">Before</th><td>${before}</td></tr><tr><th scope="row">After</th><td>${after}</td></tr>` +
    `${words ? `<tr><th scope="row">Word changes</th><td>${words}</td></tr>` : ""}</tbody></table>`
  );
}

const FEED_TAGS = [
  "p", "br", "hr", "h3", "h4", "h5", "h6", "strong", "em", "s", "span", "small", "del", "ins", "code", "pre", "blockquote",
  "ul", "ol", "li", "a", "table", "thead", "tbody", "tr", "th", "td",
];

/** The summary, marked as machine-written, and the Before / After of every changed field. */
export function renderChangeHtml(input: { summary: string; changes: readonly Change[]; link: string }): string {
  const html =
    `<p>${escapeHtml(input.summary)}</p>` +
    `<p><small>Machine-written from the diff below; check the diff before relying on it.</small></p>` +
    input.changes.map(block).join("") +
    `<p><a href="${escapeHtml(input.link)}">This change in the archive</a></p>`;
  return sanitizeHtml(html, {
    allowedTags: FEED_TAGS,
    allowedAttributes: { a: ["href", "rel"], th: ["scope"] },
    allowedSchemes: ["http", "https"],
    allowProtocolRelative: false,
    disallowedTagsMode: "discard",
  });
}
