/**
 * What one delivery carries, in every format: one change (single), several sent together in a
 * burst (batch), a digest period's changes, or a sample (test). Each change is the version exactly
 * as the API's version endpoint gives it.
 */
import type { z } from "zod";
import type { versionDetailSchema } from "@/lib/api/schemas";

export type NotifiedVersion = z.infer<typeof versionDetailSchema>;

export interface NotifiedChange {
  /** The vendor's display name (the version names it by slug). */
  vendorName: string;
  version: NotifiedVersion;
}

export type MessageKind = "single" | "batch" | "digest" | "test";

export interface OutboundMessage {
  /** Standard Webhooks' webhook-id: the same on every retry of this message. */
  webhookId: string;
  kind: MessageKind;
  /** When the message was formed (ISO 8601, UTC). */
  createdAt: string;
  /** A digest's period; null for other kinds. */
  period: { from: string; to: string; every: "hourly" | "daily" } | null;
  changes: NotifiedChange[];
}
