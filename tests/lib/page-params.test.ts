import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { changesParamsSchema, compareParamsSchema, describeParamError, paramsSchemaFor, searchParamsSchema, searchParamsToObject, vendorComparisonParamsSchema, vendorProfileParamsSchema } from "@/lib/page-params";

function reason(schema: z.ZodType, query: string): string {
  const result = schema.safeParse(searchParamsToObject(new URLSearchParams(query)));
  return result.success ? "ok" : describeParamError(result.error);
}

describe("page parameters", () => {
  it("accepts one or several change kinds, a vendor and a cursor", () => {
    const parsed = changesParamsSchema.parse(searchParamsToObject(new URLSearchParams("kind=update-edited&kind=impact-downgraded&vendor=github&before=2026-01-01T00:00:00.000Z_12")));
    expect(parsed.kind).toEqual(["update-edited", "impact-downgraded"]);
  });

  it("names the parameter and what was wrong with it", () => {
    expect(reason(changesParamsSchema, "kind=bogus")).toBe('kind: unknown change kind "bogus"');
    expect(reason(changesParamsSchema, "kind=update-edited&kind=nope")).toBe('kind: unknown change kind "nope"');
    expect(reason(searchParamsSchema, "page=0")).toBe("page: pages start at 1");
    expect(reason(changesParamsSchema, "foo=1")).toBe('unknown parameter "foo"');
    expect(reason(changesParamsSchema, "before=yesterday")).toBe("before: not a page cursor from this site");
    expect(reason(vendorProfileParamsSchema, "since=2025-02-30")).toBe("since: not a real date");
    expect(reason(vendorProfileParamsSchema, "from=2025-02-30")).toBe("from: not a real date");
    expect(reason(changesParamsSchema, "show=everything")).toBe("show: expected quiet, degradations, new or all");
    expect(reason(compareParamsSchema, "from=x&to=2")).toBe("from: expected a version number");
    expect(reason(searchParamsSchema, "page=99")).toBe("page: at most 20 pages of results");
  });

  it("takes a component group on the quiet degradations' tab only, where a blank one is no group", () => {
    expect(reason(changesParamsSchema, "show=degradations&vendor=calm&group=Europe")).toBe("ok");
    expect(reason(changesParamsSchema, "show=degradations&group=")).toBe("ok");
    expect(reason(changesParamsSchema, "group=Europe")).toBe("group: a group narrows quiet degradations: use it with show=degradations");
    expect(reason(changesParamsSchema, "show=degradations&kind=update-edited&group=Europe")).toBe("group: a group narrows quiet degradations: use it with show=degradations");
  });

  it("refuses search words past the limits, saying which limit (the proxy answers that with its 400 page)", () => {
    expect(reason(searchParamsSchema, `q=${encodeURIComponent("c* a* i* o* u* s* t* r* n* l* e* d*")}`)).toBe("q: at most 8 words (this has 12): leave out the least telling");
    expect(reason(searchParamsSchema, "q=c*")).toMatch(/^q: a word ending in \* needs at least 3 letters/);
    expect(reason(searchParamsSchema, "q=latency* errors")).toBe("ok");
  });

  it("treats an empty field of a submitted form as absent", () => {
    expect(reason(searchParamsSchema, "q=&vendor=&from=&to=")).toBe("ok");
  });

  it("reads since and until on the web as the API does, and still takes from and to from old links", () => {
    expect(vendorProfileParamsSchema.parse({ since: "2021-01-01", until: "2021-12-31" })).toMatchObject({ since: "2021-01-01", until: "2021-12-31" });
    const old = searchParamsSchema.parse({ q: "dns", from: "2021-01-01", to: "2021-06-30" });
    expect(old).toMatchObject({ since: "2021-01-01", until: "2021-06-30" });
    expect(old).not.toHaveProperty("from");
    expect(searchParamsSchema.parse({ since: "2022-01-01", from: "2021-01-01" }).since).toBe("2022-01-01");
    expect(reason(searchParamsSchema, "until=2025-13-01")).toBe("until: not a real date");
  });

  it("compares two to four distinct vendors, listed with commas or repeated, and says why otherwise", () => {
    expect(vendorComparisonParamsSchema.parse(searchParamsToObject(new URLSearchParams("vendors=jira,slack&vendors=aws"))).vendors).toEqual(["jira", "slack", "aws"]);
    expect(reason(vendorComparisonParamsSchema, "vendors=jira")).toBe("vendors: compare at least two vendors");
    expect(reason(vendorComparisonParamsSchema, "vendors=jira,jira")).toBe("vendors: compare at least two vendors");
    expect(reason(vendorComparisonParamsSchema, "vendors=a,b,c,d,e")).toBe("vendors: compare at most four vendors");
    expect(reason(vendorComparisonParamsSchema, "vendors=a,B_")).toBe("vendors: not a vendor slug");
    expect(reason(vendorComparisonParamsSchema, "vendors=a,b&since=2022-01-01&until=2021-01-01")).toBe("since: since must not be after until");
    expect(reason(vendorComparisonParamsSchema, "")).toBe("ok");
  });

  it("knows which schema checks each page", () => {
    expect(paramsSchemaFor("/compare")).toBe(vendorComparisonParamsSchema);
    expect(paramsSchemaFor("/")).toBe(changesParamsSchema);
    expect(paramsSchemaFor("/vendors/github")).toBe(vendorProfileParamsSchema);
    expect(paramsSchemaFor("/vendors/github/incidents/x/compare")).toBe(compareParamsSchema);
    expect(paramsSchemaFor("/vendors/github/incidents/x/export.md")).toBeNull();
  });
});
