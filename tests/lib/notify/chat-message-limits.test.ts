import { describe, expect, it } from "vitest";
import { renderDiscordMessage, renderSlackMessage, renderTeamsMessage } from "@/lib/notify/chat-messages";
import type { MessageKind, NotifiedChange, OutboundMessage } from "@/lib/notify/outbound-message";
import { makeNotifiedChange } from "@/tests/support/fixture-versions";

/** Text that grows most when escaped (& becomes &amp; in Slack, every markdown character gains a backslash). */
const WORST = "&<>*_~`|#[]()-@".repeat(7_000);

function worstChanges(count: number): NotifiedChange[] {
  return Array.from({ length: count }, (_, i) =>
    makeNotifiedChange({ vendor: `vendor-${i % 7}`, vendorName: `${WORST.slice(0, 2_000)} ${i % 7}`, seq: i + 1, incident: { id: `inc${i}`, title: WORST }, headline: WORST }),
  );
}

function message(kind: MessageKind, changes: NotifiedChange[]): OutboundMessage {
  const period = kind === "digest" ? { from: "2026-03-01T10:00:00.000Z", to: "2026-03-01T11:00:00.000Z", every: "hourly" as const } : null;
  return { webhookId: "msg_limits", kind, createdAt: "2026-03-01T11:00:00.000Z", period, changes };
}

const CASES: Array<[string, OutboundMessage]> = [
  ["one change", message("single", worstChanges(1))],
  ["a batch of 1,000", message("batch", worstChanges(1_000))],
  ["a digest of 1,000", message("digest", worstChanges(1_000))],
];

interface SlackBlock {
  type: string;
  text?: { text: string };
  elements?: Array<{ text?: string }>;
}

describe("chat messages with the longest, most escapable vendor text", () => {
  it.each(CASES)("keep Slack's limits for %s: fallback text ≤ 40,000, each block's text ≤ 3,000, ≤ 50 blocks", (_, m) => {
    const slack = renderSlackMessage(m) as { text: string; blocks?: SlackBlock[] };
    expect(slack.text.length).toBeLessThanOrEqual(40_000);
    const blocks = slack.blocks ?? [];
    expect(blocks.length).toBeLessThanOrEqual(50);
    for (const block of blocks) {
      if (block.text) expect(block.text.text.length).toBeLessThanOrEqual(3_000);
      for (const element of block.elements ?? []) expect((element.text ?? "").length).toBeLessThanOrEqual(3_000);
    }
  });

  it.each(CASES)("keep Discord's limits for %s: ≤ 10 embeds, title ≤ 256, description ≤ 4,096, 6,000 in all, content ≤ 2,000", (_, m) => {
    const discord = renderDiscordMessage(m) as { content?: string; embeds?: Array<{ title?: string; description?: string }>; allowed_mentions: unknown };
    const embeds = discord.embeds ?? [];
    expect(discord.allowed_mentions).toEqual({ parse: [] });
    expect(embeds.length).toBeLessThanOrEqual(10);
    let total = 0;
    for (const embed of embeds) {
      expect((embed.title ?? "").length).toBeLessThanOrEqual(256);
      expect((embed.description ?? "").length).toBeLessThanOrEqual(4_096);
      total += (embed.title ?? "").length + (embed.description ?? "").length;
    }
    expect(total).toBeLessThanOrEqual(6_000);
    expect((discord.content ?? "").length).toBeLessThanOrEqual(2_000);
  });

  it.each(CASES)("keep a Teams card for %s under the 28 KB a Workflows webhook takes", (_, m) => {
    expect(Buffer.byteLength(JSON.stringify(renderTeamsMessage(m)))).toBeLessThanOrEqual(28_000);
  });
});
