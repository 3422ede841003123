/**
 * Which maintenance windows a calendar carries and how each reads as an event: its identity, how
 * often the vendor moved it, and whether it still stands.
 */
import type { Change } from "@/lib/change";
import type { IncidentState, IncidentUpdate } from "@/lib/incident";
import type { CalendarEvent, CalendarEventStatus } from "@/lib/render/ical";
import { vendorMarkdownToText } from "@/lib/render/vendor-markdown";

/** Windows that ended this long ago drop out; every future one stays (up to MAX_EVENTS). */
export const PAST_WINDOW_DAYS = 90;
/** The nearest windows first past this many: a calendar client reads the whole file each refresh. */
export const MAX_EVENTS = 500;
const MAX_DESCRIPTION_CHARS = 4_000;
const MAX_SUMMARY_CHARS = 300;
const DAY_MS = 86_400_000;

export interface MaintenanceRecord {
  vendorSlug: string;
  vendorName: string;
  providerId: string;
  lastChangedAt: string;
  current: IncidentState;
}

/** How many versions moved the window: each that changed its start or its end counts once. */
export function countReschedules(versions: ReadonlyArray<{ changes: readonly Change[] }>): number {
  return versions.filter((v) => v.changes.some((c) => (c.field === "scheduledFor" || c.field === "scheduledUntil") && c.kind === "changed")).length;
}

/** Cancelled when the vendor deleted it or says so; otherwise the window stands. */
export function maintenanceStatus(state: IncidentState): CalendarEventStatus {
  if (state.presence === "deleted") return "CANCELLED";
  return /cancel/i.test(state.incident.status ?? "") ? "CANCELLED" : "CONFIRMED";
}

/** The windows a calendar carries at `now`: scheduled, not ended before the past bound, nearest-latest first cut at MAX_EVENTS, in start order. */
export function selectMaintenanceWindows<T extends MaintenanceRecord>(records: readonly T[], now: Date): T[] {
  const since = now.getTime() - PAST_WINDOW_DAYS * DAY_MS;
  const inWindow = records.filter((r) => {
    const { scheduledFor, scheduledUntil, kind } = r.current.incident;
    if (kind !== "maintenance" || scheduledFor === null) return false;
    return Date.parse(scheduledUntil ?? scheduledFor) >= since;
  });
  const startOf = (r: T) => r.current.incident.scheduledFor ?? "";
  const latestFirst = [...inWindow].sort((a, b) => startOf(b).localeCompare(startOf(a)) || a.providerId.localeCompare(b.providerId));
  return latestFirst.slice(0, MAX_EVENTS).reverse();
}

/** The stable UID of a vendor's maintenance: the same whatever address serves the calendar. */
export function maintenanceUid(vendorSlug: string, providerId: string): string {
  return `${providerId}@${vendorSlug}.redline`;
}

function latestUpdate(updates: readonly IncidentUpdate[]): IncidentUpdate | undefined {
  const at = (u: IncidentUpdate) => u.displayAt ?? u.createdAt ?? "";
  return updates.reduce<IncidentUpdate | undefined>((best, u) => (best === undefined || at(u) > at(best) ? u : best), undefined);
}

function describeMaintenance(state: IncidentState): string {
  const { status, components, updates } = state.incident;
  const stated = status ?? "not stated";
  // A feed of active maintenances drops one when it ends: its last status is then stale.
  const shown = state.presence === "deleted" ? "deleted by the vendor" : state.presence === "left-feed" ? `${stated} (when last listed)` : stated;
  const lines = [`Status: ${shown}`];
  if (components.length > 0) lines.push(`Components: ${components.map((c) => c.name).join(", ")}`);
  const update = latestUpdate(updates);
  const text = update ? vendorMarkdownToText(update.body).trim() : "";
  if (text) lines.push("", text);
  const description = lines.join("\n");
  return truncate(description, MAX_DESCRIPTION_CHARS);
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** One maintenance as a calendar event; `link` is the absolute address of its Redline page. */
export function toMaintenanceEvent(record: MaintenanceRecord, reschedules: number, link: string): CalendarEvent {
  const { incident } = record.current;
  return {
    uid: maintenanceUid(record.vendorSlug, record.providerId),
    start: incident.scheduledFor ?? record.lastChangedAt,
    // A window the vendor ends before it starts has no end worth showing.
    end: incident.scheduledFor !== null && incident.scheduledUntil !== null && incident.scheduledUntil > incident.scheduledFor ? incident.scheduledUntil : null,
    stamp: record.lastChangedAt,
    lastModified: record.lastChangedAt,
    sequence: reschedules,
    status: maintenanceStatus(record.current),
    summary: truncate(`${record.vendorName}: ${incident.title || "(untitled)"}`, MAX_SUMMARY_CHARS),
    description: describeMaintenance(record.current),
    url: link,
  };
}
