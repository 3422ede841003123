import { z } from "zod";
import { vendorSlugSchema } from "@/lib/vendor-slug";

export const VENDOR_CATEGORIES = [
  "cloud", "source-hosting", "ci-cd", "payments", "communication", "observability", "ai", "cdn",
  "database", "identity", "email", "developer-tools", "productivity", "infrastructure", "security",
] as const;

/** One vendor of the built-in catalog: what to poll, and where people look themselves. */
export const catalogEntrySchema = z.strictObject({
  slug: vendorSlugSchema,
  name: z.string().min(1),
  category: z.enum(VENDOR_CATEGORIES),
  /** A live platform name (see scrapers/live): statuspage, incidentio, gcp, rss … */
  platform: z.string().min(1),
  /** What the platform polls: the status page's base URL, or an exact endpoint. */
  url: z.url({ protocol: /^https$/ }),
  homepage: z.url({ protocol: /^https$/ }),
  /** The page a person opens to see the vendor's status. */
  statusPage: z.url({ protocol: /^https$/ }),
  intervalSeconds: z.number().int().min(60).max(86_400).optional(),
});
export type CatalogEntry = z.infer<typeof catalogEntrySchema>;

export const catalogSchema = z.array(catalogEntrySchema);
