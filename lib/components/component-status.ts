/**
 * One vocabulary for the state of a status page's component, whatever words its vendor uses. The
 * vendor's own word is kept beside it; a word Redline does not know is `unknown`, never operational.
 */
export const COMPONENT_STATUSES = ["operational", "degraded", "partial-outage", "major-outage", "maintenance", "unknown"] as const;
export type ComponentStatus = (typeof COMPONENT_STATUSES)[number];

/** Worst first: an outage above a degradation above a word nobody knows above maintenance above operational. */
const RANK: Record<ComponentStatus, number> = {
  "major-outage": 5, "partial-outage": 4, degraded: 3, unknown: 2, maintenance: 1, operational: 0,
};

export function rankComponentStatus(status: ComponentStatus): number {
  return RANK[status];
}

/** The worse of two states (the first on a tie). */
export function worseStatus(a: ComponentStatus, b: ComponentStatus): ComponentStatus {
  return RANK[b] > RANK[a] ? b : a;
}

/** Whether the state is a degradation or an outage: what a quiet degradation is made of (maintenance is announced, unknown is not known). */
export function isDegradedStatus(status: ComponentStatus): boolean {
  return status === "degraded" || status === "partial-outage" || status === "major-outage";
}

export function isComponentStatus(value: string): value is ComponentStatus {
  return (COMPONENT_STATUSES as readonly string[]).includes(value);
}

const LABELS: Record<ComponentStatus, string> = {
  operational: "Operational",
  degraded: "Degraded performance",
  "partial-outage": "Partial outage",
  "major-outage": "Major outage",
  maintenance: "Under maintenance",
  unknown: "Unknown",
};

export function componentStatusLabel(status: ComponentStatus): string {
  return LABELS[status];
}

/** A vendor's words for the states, normalized (case, spaces, dashes and underscores aside). */
export type StatusWords = Readonly<Record<string, ComponentStatus>>;

function normalizeWord(word: string): string {
  return word.trim().toLowerCase().replace(/[\s_-]+/g, "");
}

function lookUpWord(word: string, words: StatusWords): ComponentStatus | undefined {
  const key = normalizeWord(word);
  for (const [w, status] of Object.entries(words)) if (normalizeWord(w) === key) return status;
  return undefined;
}

/** The state a vendor's word names; `unknown` for a word not in its table. */
export function statusFromWord(word: string, words: StatusWords): ComponentStatus {
  return lookUpWord(word, words) ?? "unknown";
}

/** Whether the word is in the vendor's table: a vendor may have a word of its own for "unknown" (Cachet 3, Better Stack's not_monitored). */
export function knowsWord(word: string, words: StatusWords): boolean {
  return lookUpWord(word, words) !== undefined;
}
