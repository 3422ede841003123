import type { ComponentKnowledge } from "@/lib/components/component-grid";
import type { Incident } from "@/lib/incident";
import type { PresenceRule } from "@/lib/derive/presence";

/** The incident fields a source may state, besides its updates. */
export const STATED_FIELDS = [
  "kind", "title", "status", "impact", "url", "startedAt", "resolvedAt", "scheduledFor", "scheduledUntil", "components", "postmortem",
] as const;
export type StatedField = (typeof STATED_FIELDS)[number];

/**
 * How a source states a value.
 * - exact: as the vendor stores it (times to the millisecond, text as typed).
 * - minute: a time printed to the minute.
 * - rendered: text recovered from the vendor's HTML (spacing and markup may differ from the typed text).
 * - inferred: not stated but worked out from other fields (a start taken from the first update, a
 *   maintenance recognised by its statuses, a shortlink standing in for the page URL). An inference
 *   never overrides a statement, and a statement replaces an inference without being a change.
 */
export const STATEMENTS = ["exact", "minute", "rendered", "inferred"] as const;
export type Statement = (typeof STATEMENTS)[number];

export interface UpdateStatements {
  /** "full": the source lists every update, so one it stops listing was removed; "partial": the latest only. */
  list: "full" | "partial";
  time: "exact" | "minute";
  text: "exact" | "rendered";
  /** Whether the source gives an update's creation time besides the time it displays. */
  createdAt: boolean;
  /** The label the source prints for an update that kept the previous status: it states no status. */
  keptStatus?: string;
}

/**
 * What one source (a format read from one endpoint) says about the incidents it lists: which
 * fields, how precisely, and what its listing means. Derivation never lets a source change what
 * it does not state, and never lets a coarser first statement override a finer one.
 */
export interface SourceProfile {
  presence: PresenceRule;
  /** False for sources that only add to incidents another source lists (an incident page). */
  createsIncidents: boolean;
  fields: Partial<Record<StatedField, Statement>>;
  /** Null: the source states no updates. */
  updates: UpdateStatements | null;
  /** How its snapshots tell the components' states; absent: they do not. */
  components?: ComponentKnowledge;
  /** Its grid lists only the components its incidents and maintenances affect (GridPart "affected"). */
  affectedComponentsOnly?: boolean;
}

export const EXACT_FIELDS: Readonly<Record<StatedField, Statement>> = Object.fromEntries(
  STATED_FIELDS.map((f) => [f, "exact"]),
) as Record<StatedField, Statement>;

export const EXACT_UPDATES: UpdateStatements = { list: "full", time: "exact", text: "exact", createdAt: true };

/** A source that states every field exactly and lists every update with its times (Statuspage's JSON API). */
export function exactProfile(presence: PresenceRule, overrides: Partial<Omit<SourceProfile, "presence">> = {}): SourceProfile {
  return { presence, createsIncidents: true, fields: EXACT_FIELDS, updates: EXACT_UPDATES, ...overrides };
}

/** A profile stating only these fields exactly (and updates as given, or none). */
export function statingOnly(presence: PresenceRule, fields: readonly StatedField[], updates: UpdateStatements | null = null, createsIncidents = true): SourceProfile {
  return { presence, createsIncidents, fields: Object.fromEntries(fields.map((f) => [f, "exact"])), updates };
}

/** Whether a source states every field and the updates (it can stand alone). */
export function statesEveryField(profile: SourceProfile): boolean {
  return STATED_FIELDS.every((f) => profile.fields[f] !== undefined) && profile.updates !== null;
}

const TIME_FIELDS: ReadonlySet<StatedField> = new Set(["startedAt", "resolvedAt", "scheduledFor", "scheduledUntil"]);

export function isTimeField(field: StatedField): boolean {
  return TIME_FIELDS.has(field);
}

/** Inference ranks below any statement; among statements, finer resolution ranks higher. */
const RESOLUTION: Record<Statement, number> = { exact: 3, rendered: 2, minute: 1, inferred: 0 };

export function isInferred(s: Statement): boolean {
  return s === "inferred";
}

/** Whether `a` is a finer way of stating a value than `b`. */
export function isFiner(a: Statement, b: Statement): boolean {
  return RESOLUTION[a] > RESOLUTION[b];
}

/** The coarser of two statements: the resolution at which they can be compared. */
export function coarser(a: Statement, b: Statement): Statement {
  return RESOLUTION[a] <= RESOLUTION[b] ? a : b;
}

/** A vendor re-saving a time at lower precision moves it by less than this: that is not a change. */
export const SAME_INSTANT_MS = 1_000;

/** Two times name the same instant: within a second, or within the same minute when either is stated to the minute. */
export function sameTime(a: string | null, b: string | null, at: Statement = "exact"): boolean {
  if (a === b) return true;
  if (a === null || b === null) return false;
  const ma = Date.parse(a);
  const mb = Date.parse(b);
  if (Number.isNaN(ma) || Number.isNaN(mb)) return false;
  if (at === "minute" || at === "inferred") return Math.floor(ma / 60_000) === Math.floor(mb / 60_000);
  return Math.abs(ma - mb) < SAME_INSTANT_MS;
}

/** Text as rendered from HTML compares by its words: spacing, line breaks and markup characters aside. */
function renderedForm(text: string): string {
  return text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w !== "").join(" ");
}

export function sameText(a: string | null, b: string | null, at: Statement = "exact"): boolean {
  if (a === b) return true;
  if (a === null || b === null) return false;
  return at === "exact" ? false : renderedForm(a) === renderedForm(b);
}

/** Whether two values of a field agree when stated at `at`. */
export function sameFieldValue(field: StatedField, a: Incident[StatedField], b: Incident[StatedField], at: Statement): boolean {
  if (isTimeField(field)) return sameTime(a as string | null, b as string | null, at);
  if (field === "title") return sameText(a as string, b as string, at);
  if (field === "postmortem") {
    const pa = a as Incident["postmortem"];
    const pb = b as Incident["postmortem"];
    if (pa === null || pb === null) return pa === pb;
    return sameText(pa.body, pb.body, at) && sameTime(pa.publishedAt, pb.publishedAt, at === "exact" ? "exact" : "minute");
  }
  if (field === "components") return JSON.stringify(a) === JSON.stringify(b);
  return a === b;
}

const FIELD_WORDS: Record<StatedField, string> = {
  kind: "kind", title: "title", status: "status", impact: "impact", url: "link", startedAt: "start", resolvedAt: "end",
  scheduledFor: "schedule", scheduledUntil: "schedule", components: "components", postmortem: "postmortem",
};

function listWords(words: readonly string[]): string {
  const unique = [...new Set(words)];
  return unique.length <= 1 ? (unique[0] ?? "") : `${unique.slice(0, -1).join(", ")} and ${unique.at(-1)}`;
}

/**
 * What a source states, in words (the "States" column of docs/platforms.md): its exact fields, then what it
 * states less precisely or only infers, then what its updates are.
 */
export function describeStatements(profile: SourceProfile): string {
  const stated = profile.affectedComponentsOnly ? "the states of the components its incidents affect" : "the component grid";
  const grid = profile.components === "stated" ? stated : profile.components === "inferred" ? "component states inferred from open incidents" : "";
  if (Object.keys(profile.fields).length === 0 && profile.updates === null && grid !== "") return `${grid}; no incidents`;
  const described = describeIncidentStatements(profile);
  return grid === "" ? described : `${described}; ${grid}`;
}

function describeIncidentStatements(profile: SourceProfile): string {
  const by = (s: Statement) => STATED_FIELDS.filter((f) => profile.fields[f] === s).map((f) => FIELD_WORDS[f]);
  const missing = [...new Set(STATED_FIELDS.filter((f) => profile.fields[f] === undefined).map((f) => FIELD_WORDS[f]))];
  const exact = by("exact");
  const parts: string[] = [];
  const fieldCount = new Set(STATED_FIELDS.filter((f) => profile.fields[f] !== undefined).map((f) => FIELD_WORDS[f])).size;
  if (missing.length === 0) parts.push("all");
  else if (missing.length > 0 && missing.length <= 3 && fieldCount >= 6) parts.push(`all but ${listWords(missing)}`);
  else if (exact.length > 0) parts.push(listWords(exact));
  if (by("minute").length > 0) parts.push(`${listWords(by("minute"))} to the minute`);
  if (by("rendered").length > 0) parts.push(`${listWords(by("rendered"))} rendered from HTML`);
  if (by("inferred").length > 0) parts.push(`${listWords(by("inferred"))} inferred`);
  const u = profile.updates;
  if (u === null) parts.push("no updates");
  else {
    const notes = [
      u.list === "partial" ? "the latest update only" : "",
      u.time === "minute" ? "update times to the minute" : "",
      u.text === "rendered" ? "update texts rendered from HTML" : "",
    ].filter((n) => n !== "");
    parts.push(...notes);
  }
  if (!profile.createsIncidents) parts.push("only for incidents another source lists");
  return parts.join("; ");
}
