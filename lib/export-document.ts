import type { Change } from "@/lib/change";
import type { ChangeKindName } from "@/lib/change-kinds";
import type { ComponentHistory, QuietDegradation } from "@/lib/components/component-history";
import type { Incident, IncidentState, Presence } from "@/lib/incident";

export interface ExportVersion {
  seq: number;
  observedAt: string;
  hash: string;
  kinds: ChangeKindName[];
  changes: Change[];
  summary: string;
}

export type ExportIncident = Incident & {
  presence: Presence;
  firstSeenAt: string;
  lastSeenAt: string;
  versions: ExportVersion[];
};

/** What `export`, the web exports and the API serve: the same document everywhere. */
export interface ExportDocument {
  vendor: { slug: string; name: string };
  /** The vendor's components, each with its history of states (a vendor's export; not one incident's). */
  components?: ComponentHistory[];
  /** Stretches in which components were degraded or out while the vendor had no incident open. */
  quietDegradations?: QuietDegradation[];
  incidents: ExportIncident[];
}

export interface StoredIncidentHistory {
  firstSeenAt: string;
  lastSeenAt: string;
  /** The state of the last version. */
  current: IncidentState;
  versions: ExportVersion[];
}

/** An incident's current state (its last version) with its whole history. */
export function toExportIncident(history: StoredIncidentHistory): ExportIncident {
  if (history.versions.length === 0) throw new Error("export: an incident without versions");
  return {
    ...history.current.incident,
    presence: history.current.presence,
    firstSeenAt: history.firstSeenAt,
    lastSeenAt: history.lastSeenAt,
    versions: history.versions.map(({ seq, observedAt, hash, kinds, changes, summary }) => ({ seq, observedAt, hash, kinds, changes, summary })),
  };
}

export function renderExportJson(doc: ExportDocument): string {
  return `${JSON.stringify(doc, null, 2)}\n`;
}

/** One change of one incident: what a change page's Markdown and JSON exports serve. */
export interface VersionExportDocument {
  vendor: { slug: string; name: string };
  incident: Omit<ExportIncident, "versions">;
  version: ExportVersion;
}

/** The export of one version, from a one-incident export document; undefined when it has no such version. */
export function toVersionExport(doc: ExportDocument, seq: number): VersionExportDocument | undefined {
  const incident = doc.incidents[0];
  const version = incident?.versions.find((v) => v.seq === seq);
  if (!incident || !version) return undefined;
  const { versions: _versions, ...rest } = incident;
  return { vendor: doc.vendor, incident: rest, version };
}

export function renderVersionExportJson(doc: VersionExportDocument): string {
  return `${JSON.stringify(doc, null, 2)}\n`;
}
