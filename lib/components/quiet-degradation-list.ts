/**
 * The home page's list of quiet degradations, where one vendor's stream must not bury the others:
 * a vendor whose page changes routinely (a CDN re-routing data centres day after day) shows its
 * newest few stretches of the page, and a line saying how many more it had. Pure.
 */

export type QuietListEntry<T> =
  | { kind: "stretch"; item: T }
  /** Stretches of the vendor folded away on this page; its own list has them all. */
  | { kind: "more"; vendor: { slug: string; name: string }; count: number };

/** A page of stretches holds at most this many per vendor, unless the page is that vendor's own list. */
export const STRETCHES_PER_VENDOR = 3;

/**
 * The items (newest first) with at most `perVendor` of each vendor; each vendor that had more
 * gets one "more" entry, right after its last one shown.
 */
export function capPerVendor<T extends { vendor: { slug: string; name: string } }>(items: readonly T[], perVendor = STRETCHES_PER_VENDOR): QuietListEntry<T>[] {
  const seen = new Map<string, number>();
  for (const item of items) seen.set(item.vendor.slug, (seen.get(item.vendor.slug) ?? 0) + 1);
  const shown = new Map<string, number>();
  const out: QuietListEntry<T>[] = [];
  for (const item of items) {
    const slug = item.vendor.slug;
    const count = (shown.get(slug) ?? 0) + 1;
    if (count > perVendor) continue;
    shown.set(slug, count);
    out.push({ kind: "stretch", item });
    const total = seen.get(slug) ?? 0;
    if (count === perVendor && total > perVendor) out.push({ kind: "more", vendor: item.vendor, count: total - perVendor });
  }
  return out;
}
