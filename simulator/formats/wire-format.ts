/**
 * A serializer: normalized incidents to one vendor wire format, the one a Redline parser (import
 * platform) of the same name reads. The registry in formats/index.ts lists one per parser name.
 */
import type { ComponentReading } from "@/lib/components/component-grid";
import type { Incident } from "@/lib/incident";
import type { ShownComponent, SimComponent } from "@/simulator/components";

/** What a simulated vendor shows at one moment, as every one of its endpoints sees it. */
export interface VendorView {
  vendor: string;
  /** The vendor's display name (Statuspage page name, feed title). */
  name: string;
  /** Origin of the vendor's status page, without a trailing slash. */
  baseUrl: string;
  /** When the state in force began (ISO); bodies depend on the state only, never on "now". */
  at: string;
  /** Every incident the vendor shows, newest first, in canonical form. */
  incidents: readonly Incident[];
  /** Every component the vendor lists, sorted by id. */
  components: readonly SimComponent[];
  /** The components as the page shows them now (simulator/components.ts). */
  grid: readonly ShownComponent[];
}

export interface WireFormat {
  /** The Redline parser (import platform) that reads this format. */
  parser: string;
  contentType: string;
  /** Where a vendor serves this format when it is polled at that exact endpoint (a bare-parser family). */
  defaultPath?(view: VendorView): string;
  /** The incidents the endpoint at `path` lists; null when the path names nothing (404). */
  select(view: VendorView, path: string): Incident[] | null;
  /**
   * The body: a function of `listed`, `path`, the grid and the view's constant fields (vendor, name,
   * baseUrl, components) only, so an endpoint whose listed incidents and grid did not change did not change.
   */
  render(listed: readonly Incident[], view: VendorView, path: string): string;
  /**
   * One listed incident as Redline's parser of this format reads it back (what the format carries):
   * several where the format lists each of its updates as an item of its own (AWS's all.rss).
   */
  readBack(incident: Incident, view: VendorView): Incident | Incident[];
  /**
   * False for an endpoint that lists no incident, only the grid: its `listed` are the incidents the
   * grid depends on (the body changes with them), and none is read back.
   */
  listsIncidents?: false;
  /** The grid the body states, as Redline's parser reads it back; absent when the format states none. */
  readBackGrid?(listed: readonly Incident[], view: VendorView): ComponentReading[];
}

/** What Redline's parser reads back of the listed incidents, in one list. */
export function readBackAll(format: WireFormat, listed: readonly Incident[], view: VendorView): Incident[] {
  return format.listsIncidents === false ? [] : listed.flatMap((i) => format.readBack(i, view));
}

export const iso = (ms: number): string => new Date(ms).toISOString();

/** A time cut to the minute, as formats that print HH:MM carry it. */
export function toMinute(time: string): string {
  return iso(Math.floor(Date.parse(time) / 60_000) * 60_000);
}

export function toSecond(time: string): string {
  return iso(Math.floor(Date.parse(time) / 1000) * 1000);
}

/** The latest time the incident states: its last update, resolution or postmortem. */
export function lastChangeOf(incident: Incident): string {
  const times = [incident.startedAt, incident.resolvedAt, incident.postmortem?.publishedAt ?? null];
  for (const u of incident.updates) times.push(u.createdAt, u.displayAt);
  return times.filter((t): t is string => t !== null).sort().at(-1) ?? "1970-01-01T00:00:00.000Z";
}

export function isOver(incident: Incident): boolean {
  return incident.status === "resolved" || incident.status === "postmortem" || incident.status === "completed";
}

export function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

/** Plain text as vendor HTML: escaped, line breaks as <br />. */
export function textToHtml(text: string): string {
  return escapeXml(text).replace(/\n/g, "<br />");
}

/** "In progress" for "in_progress", as status labels are printed. */
export function statusLabel(status: string): string {
  const words = status.replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** "Mon, 02 Mar 2026 10:29:09 +0000", as RSS prints dates; `zone` replaces the offset (Azure prints "Z"). */
export function rfc822(time: string, zone = "+0000"): string {
  return new Date(time).toUTCString().replace("GMT", zone);
}

export function jsonBody(value: unknown): string {
  return JSON.stringify(value);
}
