/**
 * An e-mail for a message: a subject, a text and an HTML part (escaped; inline styles only), and
 * the List-Unsubscribe headers of RFC 2369 and RFC 8058. Vendor text reaches no header but the
 * subject, which carries no line break and is bounded.
 */
import type { OutboundMessage } from "@/lib/notify/outbound-message";
import { type ChangeLine, changesLink, clip, describeBundle, describeChange } from "@/lib/notify/message-lines";

export interface EmailParts {
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
}

const MAX_SUBJECT = 200;
/** A digest lists this many changes in full; the rest are counted and linked. */
const LISTED = 200;

function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

function textOf(l: ChangeLine): string {
  return `${l.vendor}: ${l.kinds}\n${l.headline}\n${l.title} · ${l.impact} · ${l.state}\n${l.link}\n`;
}

function htmlOf(l: ChangeLine): string {
  return `<div style="margin:0 0 16px 0">
<div style="font-weight:bold">${escapeHtml(l.vendor)} · ${escapeHtml(l.kinds)}</div>
<div>${escapeHtml(l.headline)}</div>
<div style="color:#555;font-size:13px">${escapeHtml(l.title)} · ${escapeHtml(l.impact)} · ${l.state} · <a href="${escapeHtml(l.link)}">What changed</a></div>
</div>`;
}

export function renderEmailMessage(message: OutboundMessage, options: { unsubscribeUrl: string | null }): EmailParts {
  // Only the listed changes are described: the rest are counted, their vendor text never read.
  const listed = message.changes.slice(0, LISTED).map(describeChange);
  const more = message.changes.length - listed.length;
  const only = listed[0];
  const single = message.kind === "single" && only && message.changes.length === 1 ? only : null;
  const test = message.kind === "test" ? "Redline test message: this subscription reaches you." : null;
  const subject = clip(single ? `${single.vendor}: ${single.kinds}: ${single.headline}` : test ?? `Redline: ${describeBundle(message)}`, MAX_SUBJECT);
  const heading = single || test ? (test ?? "") : describeBundle(message);
  const link = changesLink(message);
  const footerText = options.unsubscribeUrl ? `\n--\nYou get this from a Redline subscription. Unsubscribe: ${options.unsubscribeUrl}\n` : "";
  const footerHtml = options.unsubscribeUrl
    ? `<p style="color:#777;font-size:12px">You get this from a Redline subscription. <a href="${escapeHtml(options.unsubscribeUrl)}">Unsubscribe</a></p>`
    : "";
  const moreText = more > 0 ? `…and ${more} more${link ? `: ${link}` : ""}\n` : "";
  const moreHtml = more > 0 ? `<p>…and ${more} more${link ? ` (<a href="${escapeHtml(link)}">all changes</a>)` : ""}</p>` : "";
  const text = `${heading ? `${heading}\n\n` : ""}${listed.map(textOf).join("\n")}${moreText}${footerText}`;
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.4">${heading ? `<p style="font-weight:bold">${escapeHtml(heading)}</p>` : ""}${listed.map(htmlOf).join("")}${moreHtml}${footerHtml}</body></html>`;
  const headers: Record<string, string> = options.unsubscribeUrl ? { "List-Unsubscribe": `<${options.unsubscribeUrl}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" } : {};
  return { subject, text, html, headers };
}
