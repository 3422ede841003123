/**
 * Bump when derivation itself changes (what a version records, how sources merge): every vendor's
 * history is then rebuilt from its raw captures in the background, as after a parser upgrade.
 */
export const DERIVATION_VERSION = 4;

/** Which parser versions, and which derivation, a vendor's stored history was derived with. */
export type DerivedWith = Record<string, number>;

/** The key under which the derivation version is kept beside the parsers' in `vendors.derived_with`. */
export const DERIVATION_KEY = "@derive";

/** Whether history derived with `stored` must be rebuilt with the parsers of `current`. */
export function isStale(stored: DerivedWith, current: (platform: string) => number | undefined): boolean {
  if (stored[DERIVATION_KEY] !== DERIVATION_VERSION) return true;
  return Object.entries(stored).some(([name, version]) => name !== DERIVATION_KEY && current(name) !== version);
}
