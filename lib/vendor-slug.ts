import { z } from "zod";

/** Slugs appear in URLs, file names and feed ids: lowercase letters, digits and single dashes. */
export const VENDOR_SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** Longer than any vendor needs (the catalog's longest is 23), short enough for every path and id it appears in. */
export const VENDOR_SLUG_MAX_LENGTH = 64;

/** The slug of a vendor to add, as every way in (API, CLI, catalog, import, the store) checks it; a slug too long is not quoted back. */
export const vendorSlugSchema = z
  .string()
  .max(VENDOR_SLUG_MAX_LENGTH, { error: (issue) => `the vendor slug is ${String(issue.input).length} characters long: at most ${VENDOR_SLUG_MAX_LENGTH}` })
  .regex(VENDOR_SLUG_PATTERN, { error: (issue) => `invalid vendor slug ${JSON.stringify(issue.input)}: use lowercase letters, digits and dashes` });

/** Why `slug` cannot name a new vendor, or null when it can. */
export function vendorSlugProblem(slug: string): string | null {
  const checked = vendorSlugSchema.safeParse(slug);
  return checked.success ? null : (checked.error.issues[0]?.message ?? "invalid vendor slug");
}
