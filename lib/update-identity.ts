/**
 * Identities for updates the vendor gives no id. A derived id comes from the update's own
 * creation time (never its text), so an edit of the text keeps the identity.
 * Derived ids start with "~" so the diff knows they may move when a vendor moves the time.
 */
export const DERIVED_ID_PREFIX = "~";

export function isDerivedUpdateId(id: string): boolean {
  return id.startsWith(DERIVED_ID_PREFIX);
}

/** Ids for updates keyed by a time (or other stable key); repeats get "-2", "-3" in feed order. */
export function deriveUpdateIds(keys: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return keys.map((key) => {
    const compact = key.replace(/[-:]/g, "").replace(/\.000Z/, "Z").replace(/[^A-Za-z0-9._~]+/g, "-");
    const count = (seen.get(compact) ?? 0) + 1;
    seen.set(compact, count);
    return `${DERIVED_ID_PREFIX}${compact}${count > 1 ? `-${count}` : ""}`;
  });
}
