import { createHash, randomBytes } from "node:crypto";
import { setHookSecretHash } from "@/db/operations/hooks";
import { getPollState } from "@/db/operations/poll-state";
import {
  addLiveSource, addVendor, describeVendorState, getVendorBySlug, listVendorSummaries, removeVendor, syncCatalogVendors, VendorError,
  VendorExistsError, type VendorRow, vendorState,
} from "@/db/settings/vendors";
import { readEnv } from "@/lib/env";
import { CATALOG, catalogVendorSettings } from "@/scrapers/catalog/catalog";
import { validateVendorInput, VendorInputError } from "@/scrapers/live/validate-vendor";
import { CliError, withDatabase } from "@/scrapers/cli/cli-context";
import { describePlatformFamily, isSameFamily, platformFamily } from "@/scrapers/platforms/families";

interface AddOptions {
  slug: string;
  name: string;
  platform: string;
  url: string;
  interval?: string;
  addSource?: boolean;
  db?: string;
}

/** Everything about a new vendor is checked before the database is opened. */
export function validateVendor(opts: AddOptions, allowPrivate: boolean): { url: string; intervalSeconds: number | null } {
  let intervalSeconds: number | null = null;
  if (opts.interval !== undefined) {
    intervalSeconds = Number(opts.interval);
    if (!Number.isInteger(intervalSeconds) || intervalSeconds < 10 || intervalSeconds > 86_400) {
      throw new CliError(`--interval must be whole seconds from 10 to 86400, not ${JSON.stringify(opts.interval)}`);
    }
  }
  try {
    return validateVendorInput({ slug: opts.slug, name: opts.name, platform: opts.platform, url: opts.url, intervalSeconds }, allowPrivate);
  } catch (error) {
    if (error instanceof VendorInputError) throw new CliError(error.message);
    throw error;
  }
}

/** Why adding this vendor is refused, with what to do instead; null when it may go ahead. */
function refuseExisting(existing: VendorRow, platform: string, addSource: boolean): string | null {
  const slug = existing.slug;
  const what = `vendor ${slug} already exists: ${describeVendorState(existing)}`;
  const family = platformFamily(existing.platform) ?? existing.platform;
  const state = vendorState(existing);
  if (state === "polled") {
    return `${what}; a vendor is polled from one URL: choose another --slug, or run \`vendors remove ${slug}\` first (its history stays) and add it again with --add-source`;
  }
  if (!addSource) {
    const again = state === "imported" ? "to poll it too" : "to poll it again";
    return `${what}; ${again}, keeping its history, run again with --add-source and a ${family}-family platform, or choose another --slug`;
  }
  if (!isSameFamily(existing.platform, platform)) {
    return `vendor ${slug} is of ${describePlatformFamily(existing.platform)}, live platform ${platform} of ${describePlatformFamily(platform)}: one vendor cannot mix them; choose another --slug`;
  }
  return null;
}

export async function runVendorsAdd(opts: AddOptions): Promise<void> {
  const { url, intervalSeconds } = validateVendor(opts, readEnv().REDLINE_ALLOW_PRIVATE_URLS);
  const settings = { slug: opts.slug, name: opts.name.trim(), platform: opts.platform, url, intervalSeconds };
  const addSource = opts.addSource === true;
  await withDatabase(addSource ? "vendors add --add-source" : "vendors add", opts, async (db) => {
    const existing = await getVendorBySlug(db, opts.slug);
    const every = intervalSeconds ? `, every ${intervalSeconds} s` : "";
    try {
      if (!existing) {
        if (addSource) throw new CliError(`no vendor ${opts.slug} to add a source to: drop --add-source to add a new vendor, or check the slug`);
        await addVendor(db, settings, "user");
        process.stdout.write(`added ${opts.slug} (${opts.platform}) at ${url}${every}\n`);
        return;
      }
      const refusal = refuseExisting(existing, opts.platform, addSource);
      if (refusal) throw new CliError(refusal);
      await addLiveSource(db, settings);
      process.stdout.write(`${opts.slug} (${opts.platform}) is polled from ${url}${every}; its archived history stays\n`);
    } catch (error) {
      if (error instanceof VendorError || error instanceof VendorExistsError) throw new CliError(error.message, { cause: error });
      throw error;
    }
  });
}

export async function runVendorsRemove(slug: string, opts: { purge?: boolean; db?: string }): Promise<void> {
  await withDatabase("vendors remove", opts, async (db) => {
    if (!(await getVendorBySlug(db, slug))) throw new CliError(`unknown vendor ${JSON.stringify(slug)}`);
    const { incidents, bodies } = await removeVendor(db, slug, opts.purge ?? false);
    const shared = bodies && bodies.rebased > 0 ? ` (${bodies.rebased} it shared with other vendors re-stored whole)` : "";
    process.stdout.write(
      opts.purge
        ? `deleted ${slug}, its ${incidents} archived incidents and ${bodies?.dropped ?? 0} raw bodies${shared}\n`
        : `${slug} will no longer be polled; its ${incidents} archived incidents and raw captures stay (use --purge to delete them)\n`,
    );
  });
}

export async function runVendorsList(opts: { db?: string }): Promise<void> {
  await withDatabase("vendors list", opts, async (db) => {
    const rows = await listVendorSummaries(db);
    if (rows.length === 0) {
      process.stdout.write("no vendors yet: add one with `vendors add`, or `vendors sync-catalog`\n");
      return;
    }
    const lines = [["slug", "platform", "polled", "last poll", "incidents", "url"]];
    for (const v of rows) {
      const vendor = await getVendorBySlug(db, v.slug);
      const state = vendor ? (await getPollState(db, vendor.id)) : undefined;
      const last = state?.lastPollAt ? `${state.lastOutcome ?? "?"} ${state.lastPollAt.slice(0, 16).replace("T", " ")}` : "never";
      lines.push([v.slug, v.platform, vendor?.enabled && vendor.url ? "yes" : "no", last, String(v.incidentCount), vendor?.url ?? "(import only)"]);
    }
    const widths = lines[0]?.map((_, i) => Math.max(...lines.map((l) => (l[i] ?? "").length))) ?? [];
    for (const line of lines) process.stdout.write(`${line.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join("  ").trimEnd()}\n`);
  });
}

export async function runVendorsSyncCatalog(opts: { db?: string }): Promise<void> {
  await withDatabase("vendors sync-catalog", opts, async (db) => {
    const { added, updated } = await syncCatalogVendors(db, catalogVendorSettings());
    process.stdout.write(`catalog: ${CATALOG.length} vendors, ${added} added, ${updated} updated\n`);
  });
}

export async function runVendorsHookSecret(slug: string, opts: { clear?: boolean; db?: string }): Promise<void> {
  await withDatabase("vendors hook-secret", opts, async (db) => {
    if (!(await getVendorBySlug(db, slug))) throw new CliError(`unknown vendor ${JSON.stringify(slug)}`);
    if (opts.clear) {
      await setHookSecretHash(db, slug, null);
      process.stdout.write(`${slug}: webhook secret removed; its pushes are refused\n`);
      return;
    }
    const secret = randomBytes(24).toString("base64url");
    await setHookSecretHash(db, slug, createHash("sha256").update(secret).digest("hex"));
    process.stdout.write(`${slug}: subscribe the status page's webhook to <Redline's address>/api/v1/hooks/${slug}/${secret}\n`);
    process.stdout.write("the secret is shown this once; run this again to replace it\n");
  });
}
