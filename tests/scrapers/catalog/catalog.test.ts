import { isIP } from "node:net";
import { describe, expect, it } from "vitest";
import { CATALOG, CatalogError, findCatalogEntry, parseCatalog } from "@/scrapers/catalog/catalog";
import { catalogEntrySchema, type CatalogEntry } from "@/scrapers/catalog/catalog-schema";
import vendors from "@/scrapers/catalog/vendors.json";
import { checkUrlTarget } from "@/scrapers/http/address-policy";
import { getLivePlatform } from "@/scrapers/live";

/** Why an endpoint URL could not be polled from a public network, or null when it can. */
function endpointProblem(raw: string): string | null {
  const url = new URL(raw);
  if (url.protocol !== "https:") return `${raw} is not https`;
  if (isIP(url.hostname.replace(/^\[|\]$/g, "")) !== 0) return `${raw} names an IP address`;
  try {
    checkUrlTarget(url, false);
  } catch (error) {
    return `${raw}: ${String(error)}`;
  }
  return null;
}

function planProblems(entry: CatalogEntry): string[] {
  const live = getLivePlatform(entry.platform);
  if (!live) return [`${entry.slug}: no live platform "${entry.platform}"`];
  const { endpoints } = live.plan(new URL(entry.url));
  if (endpoints.length === 0) return [`${entry.slug}: the plan has no endpoint`];
  return endpoints.flatMap((e) => endpointProblem(e.url) ?? []).map((p) => `${entry.slug}: ${p}`);
}

describe("the built-in vendor catalog", () => {
  it("holds entries that each satisfy the catalog entry schema", () => {
    const broken = vendors.flatMap((v, i) => (catalogEntrySchema.safeParse(v).success ? [] : [`${i} ${v.slug}`]));
    expect(broken).toEqual([]);
    expect(CATALOG).toHaveLength(vendors.length);
  });

  it("refuses an entry whose slug is over 64 characters, and holds none", () => {
    const first = vendors[0];
    expect(catalogEntrySchema.safeParse({ ...first, slug: "a".repeat(65) }).success).toBe(false);
    expect(catalogEntrySchema.safeParse({ ...first, slug: "a".repeat(64) }).success).toBe(true);
    expect(CATALOG.filter((e) => e.slug.length > 64)).toEqual([]);
  });

  it("lists every vendor once, ordered by slug, with no two sharing a name", () => {
    const slugs = CATALOG.map((e) => e.slug);
    expect(new Set(slugs).size).toBe(slugs.length);
    expect(slugs).toEqual([...slugs].sort());
    const names = CATALOG.map((e) => e.name.toLowerCase());
    expect(new Set(names).size).toBe(names.length);
  });

  it("covers at least 100 vendors and at least 8 categories with 3 or more vendors each", () => {
    expect(CATALOG.length).toBeGreaterThanOrEqual(100);
    const perCategory = new Map<string, number>();
    for (const e of CATALOG) perCategory.set(e.category, (perCategory.get(e.category) ?? 0) + 1);
    expect([...perCategory.values()].filter((n) => n >= 3).length).toBeGreaterThanOrEqual(8);
  });

  it("names only platforms Redline can poll live", () => {
    const unknown = [...new Set(CATALOG.map((e) => e.platform))].filter((name) => !getLivePlatform(name));
    expect(unknown).toEqual([]);
  });

  it("plans at least one https endpoint on a public host name for every vendor", () => {
    expect(CATALOG.flatMap(planProblems)).toEqual([]);
  });

  it("polls and links vendors' own status domains, never a *.statuspage.io alias", () => {
    const aliases = CATALOG.flatMap((e) =>
      [e.url, e.statusPage].filter((u) => new URL(u).hostname.endsWith(".statuspage.io")).map((u) => `${e.slug}: ${u}`),
    );
    expect(aliases).toEqual([]);
  });

  it("finds an entry by slug and nothing for an unknown slug", () => {
    expect(findCatalogEntry("github")).toMatchObject({ name: "GitHub", platform: "statuspage", url: "https://www.githubstatus.com" });
    expect(findCatalogEntry("no-such-vendor")).toBeUndefined();
  });
});

describe("parseCatalog", () => {
  const valid = {
    slug: "acme",
    name: "Acme",
    category: "cloud",
    platform: "statuspage",
    url: "https://status.acme.example",
    homepage: "https://acme.example",
    statusPage: "https://status.acme.example",
  };

  it("returns the entries of a valid file", () => {
    expect(parseCatalog([valid])).toEqual([valid]);
  });

  it("rejects a broken entry with an error naming its index and field", () => {
    const parse = () => parseCatalog([valid, { ...valid, slug: "acme-two", url: "http://status.acme.example" }]);
    expect(parse).toThrow(CatalogError);
    expect(parse).toThrow(/entry 1, field "url"/);
  });

  it("rejects an unknown field, naming the entry and the field", () => {
    expect(() => parseCatalog([{ ...valid, interval: 60 }])).toThrow(/entry 0: unknown field "interval"/);
  });

  it("rejects a file that is not a list", () => {
    expect(() => parseCatalog({ vendors: [valid] })).toThrow(CatalogError);
  });
});
