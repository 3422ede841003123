import { vendorSlugProblem } from "@/lib/vendor-slug";
import { checkUrlTarget } from "@/scrapers/http/address-policy";
import { getLivePlatform, LIVE_PLATFORMS } from "@/scrapers/live";

export class VendorInputError extends Error {
  readonly kind = "vendor-input";
  constructor(
    message: string,
    /** Which input was wrong: slug, name, platform, url or interval. */
    readonly field: string,
  ) {
    super(message);
  }
}

export interface VendorInput {
  slug: string;
  name: string;
  platform: string;
  url: string;
  intervalSeconds?: number | null;
}

/**
 * Everything about a vendor to add, checked before anything is stored: the slug's form, a known
 * platform, a URL without credentials that platform can poll and that the address policy allows,
 * a sane interval.
 */
export function validateVendorInput(input: VendorInput, allowPrivate: boolean): { url: string; intervalSeconds: number | null } {
  const slugProblem = vendorSlugProblem(input.slug);
  if (slugProblem !== null) throw new VendorInputError(slugProblem, "slug");
  if (input.name.trim() === "") throw new VendorInputError("the vendor name is empty", "name");
  const live = getLivePlatform(input.platform);
  if (!live) throw new VendorInputError(`unknown platform ${JSON.stringify(input.platform)} (known: ${LIVE_PLATFORMS.map((p) => p.name).join(", ")})`, "platform");
  let url: URL;
  try {
    url = new URL(input.url);
  } catch {
    throw new VendorInputError(`not a URL: ${JSON.stringify(input.url)}`, "url");
  }
  if (url.username || url.password) {
    throw new VendorInputError("put no user name or password in the vendor URL: the archive shows it to anyone who reads it", "url");
  }
  try {
    checkUrlTarget(url, allowPrivate);
    live.plan(url);
  } catch (error) {
    throw new VendorInputError(`refused ${url.toString()}: ${(error as Error).message}`, "url");
  }
  const interval = input.intervalSeconds ?? null;
  if (interval !== null && (!Number.isInteger(interval) || interval < 10 || interval > 86_400)) {
    throw new VendorInputError(`the interval must be whole seconds from 10 to 86400, not ${JSON.stringify(interval)}`, "interval");
  }
  return { url: url.toString(), intervalSeconds: interval };
}
