/**
 * Slack (Block Kit), Discord (embeds) and Microsoft Teams (an Adaptive Card for a Workflows
 * webhook) messages: one change, or one summary for a batch or digest. Vendor text is escaped so
 * the platform shows it as text: it pings no one and formats nothing.
 */
import type { OutboundMessage } from "@/lib/notify/outbound-message";
import { type ChangeLine, changesLink, describeBundle, describeChange } from "@/lib/notify/message-lines";

/** A bundle lists this many changes, then "and N more". */
const LISTED = 5;

/** Slack mrkdwn's control characters, as its docs ask: & < > (so `<!channel>` and links cannot be forged). */
export function escapeSlack(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** Slack refuses a section whose text passes 3,000 characters (invalid_blocks): a summary's list stops short of it. */
const SLACK_SECTION_MAX = 3_000;

/** Escaped, then cut to `max` characters of escaped text without splitting an entity. */
function escapeSlackWithin(text: string, max: number): string {
  let out = "";
  for (const c of text) {
    const e = escapeSlack(c);
    if (out.length + e.length > max - 1) return `${out}…`;
    out += e;
  }
  return out;
}

/** Discord markdown and mentions: every markdown character escaped, @ broken with a zero-width space. */
export function escapeDiscord(text: string): string {
  return text.replace(/([\\*_~`|>#[\]()-])/g, "\\$1").replace(/@/g, "@\u200b");
}

/** Teams cards render a subset of Markdown: escape its characters. */
export function escapeTeams(text: string): string {
  return text.replace(/([\\*_~`#[\]()<>-])/g, "\\$1");
}

function lines(message: OutboundMessage): { single: ChangeLine | null; listed: ChangeLine[]; more: number } {
  // Only the listed changes are described: a burst of a thousand reads no vendor text it will not show.
  const count = message.changes.length;
  const first = message.changes[0];
  if (message.kind === "single" && first && count === 1) return { single: describeChange(first), listed: [], more: 0 };
  return { single: null, listed: message.changes.slice(0, LISTED).map(describeChange), more: Math.max(0, count - LISTED) };
}

function emptyTest(message: OutboundMessage): string | null {
  return message.kind === "test" && message.changes.length === 0 ? "Redline test message: this subscription reaches you. (The archive holds no change to show as a sample yet.)" : null;
}

export function renderSlackMessage(message: OutboundMessage): object {
  const test = emptyTest(message);
  if (test) return { text: test };
  const { single, listed, more } = lines(message);
  const prefix = message.kind === "test" ? "Redline test message. " : "";
  if (single) {
    const text = `${prefix}${single.vendor}: ${single.kinds}: ${single.headline}`;
    return {
      text: escapeSlack(text),
      blocks: [
        { type: "section", text: { type: "mrkdwn", text: `${escapeSlack(prefix)}*${escapeSlack(single.vendor)}* · ${escapeSlack(single.kinds)}\n${escapeSlack(single.headline)}` } },
        { type: "context", elements: [{ type: "mrkdwn", text: `${escapeSlack(single.title)} · ${escapeSlack(single.impact)} · ${single.state} · <${single.link}|What changed>` }] },
      ],
    };
  }
  const summary = describeBundle(message);
  const head = `${escapeSlack(prefix)}*${escapeSlackWithin(summary, 400)}*`;
  const rows: string[] = [];
  let length = head.length + 40; // room for "…and N more"
  for (const l of listed) {
    const row = `• *${escapeSlackWithin(l.vendor, 120)}* · ${escapeSlackWithin(l.kinds, 200)}: <${l.link}|${escapeSlackWithin(l.headline, 300)}>`;
    if (length + row.length + 1 > SLACK_SECTION_MAX) break;
    rows.push(row);
    length += row.length + 1;
  }
  const unlisted = more + listed.length - rows.length;
  const link = changesLink(message);
  return {
    text: escapeSlack(`${prefix}${summary}`),
    blocks: [
      { type: "section", text: { type: "mrkdwn", text: `${head}\n${rows.join("\n")}${unlisted > 0 ? `\n…and ${unlisted} more` : ""}` } },
      ...(link ? [{ type: "context", elements: [{ type: "mrkdwn", text: `<${link}|All changes in Redline>` }] }] : []),
    ],
  };
}

/** Discord's limits: 10 embeds, a title of 256 characters, a description of 4,096, 6,000 in all. */
const cut = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

export function renderDiscordMessage(message: OutboundMessage): object {
  const none = { allowed_mentions: { parse: [] } };
  const test = emptyTest(message);
  if (test) return { ...none, content: test };
  const { single, listed, more } = lines(message);
  const content = message.kind === "test" ? "Redline test message" : undefined;
  if (single) {
    return {
      ...none,
      ...(content ? { content } : {}),
      embeds: [{
        title: cut(`${escapeDiscord(single.vendor)}: ${single.kinds}`, 256),
        description: cut(`${escapeDiscord(single.headline)}\n\n${escapeDiscord(single.title)} · ${single.impact} · ${single.state}`, 2_000),
        url: single.link,
      }],
    };
  }
  const description = [...listed.map((l) => `**${escapeDiscord(l.vendor)}** · ${escapeDiscord(l.kinds)}: [${escapeDiscord(l.headline)}](${l.link})`), ...(more > 0 ? [`…and ${more} more`] : [])].join("\n");
  return { ...none, embeds: [{ title: cut(describeBundle(message), 256), description: cut(description, 4_000), ...(changesLink(message) ? { url: changesLink(message) } : {}) }] };
}

export function renderTeamsMessage(message: OutboundMessage): object {
  const test = emptyTest(message);
  const { single, listed, more } = lines(message);
  const body: object[] = [];
  let url: string | null = null;
  if (test) body.push({ type: "TextBlock", text: escapeTeams(test), wrap: true });
  else if (single) {
    url = single.link;
    body.push(
      { type: "TextBlock", text: escapeTeams(`${message.kind === "test" ? "Redline test message. " : ""}${single.vendor}: ${single.kinds}`), weight: "Bolder", wrap: true },
      { type: "TextBlock", text: escapeTeams(single.headline), wrap: true },
      { type: "FactSet", facts: [{ title: single.subject, value: escapeTeams(single.title) }, { title: "Impact", value: single.impact }, { title: "State", value: single.state }] },
    );
  } else {
    url = changesLink(message);
    body.push({ type: "TextBlock", text: escapeTeams(describeBundle(message)), weight: "Bolder", wrap: true });
    for (const l of listed) body.push({ type: "TextBlock", text: `${escapeTeams(l.vendor)} · ${escapeTeams(l.kinds)}: [${escapeTeams(l.headline)}](${l.link})`, wrap: true });
    if (more > 0) body.push({ type: "TextBlock", text: `…and ${more} more`, wrap: true });
  }
  return {
    type: "message",
    attachments: [{
      contentType: "application/vnd.microsoft.card.adaptive",
      contentUrl: null,
      content: {
        $schema: "http://adaptivecards.io/schemas/adaptive-card.json",
        type: "AdaptiveCard",
        version: "1.4",
        body,
        actions: url ? [{ type: "Action.OpenUrl", title: single ? "What changed" : "All changes", url }] : [],
      },
    }],
  };
}
