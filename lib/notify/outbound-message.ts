/**
 * What one delivery carries, in every format: one change (single), several sent together in a
 * burst (batch), a digest period's changes, or a sample (test). Each change is a version exactly
 * as the API's version endpoint gives it, or a quiet degradation as the API lists it.
 */
import type { z } from "zod";
import type { quietDegradationSchema, versionDetailSchema } from "@/lib/api/schemas";

export type NotifiedVersion = z.infer<typeof versionDetailSchema>;
export type NotifiedQuietDegradation = z.infer<typeof quietDegradationSchema>;

export interface NotifiedVersionChange {
  /** The vendor's display name (the version names it by slug). */
  vendorName: string;
  version: NotifiedVersion;
}

/** A quiet degradation that started: notified once, when it starts. */
export interface NotifiedQuietChange {
  vendorName: string;
  quietDegradation: NotifiedQuietDegradation;
}

export type NotifiedChange = NotifiedVersionChange | NotifiedQuietChange;

export function isVersionChange(change: NotifiedChange): change is NotifiedVersionChange {
  return "version" in change;
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
