import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { changesParamsSchema, compareParamsSchema, describeParamError, paramsSchemaFor, searchParamsSchema, searchParamsToObject, vendorProfileParamsSchema } from "@/lib/page-params";

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
    expect(reason(changesParamsSchema, "kind=bogus")).toBe('kind: unknown change kind "bogus" (the filter on the page lists them)');
    expect(reason(changesParamsSchema, "kind=update-edited&kind=nope")).toBe('kind: unknown change kind "nope" (the filter on the page lists them)');
    expect(reason(searchParamsSchema, "page=0")).toBe("page: pages start at 1");
    expect(reason(changesParamsSchema, "foo=1")).toBe('unknown parameter "foo"');
    expect(reason(changesParamsSchema, "before=yesterday")).toBe("before: not a page cursor from this site");
    expect(reason(vendorProfileParamsSchema, "from=2025-02-30")).toBe("from: not a real date");
    expect(reason(compareParamsSchema, "from=x&to=2")).toBe("from: expected a version number");
    expect(reason(searchParamsSchema, "page=99")).toBe("page: at most 20 pages of results");
  });

  it("treats an empty field of a submitted form as absent", () => {
    expect(reason(searchParamsSchema, "q=&vendor=&from=&to=")).toBe("ok");
  });

  it("knows which schema checks each page", () => {
    expect(paramsSchemaFor("/")).toBe(changesParamsSchema);
    expect(paramsSchemaFor("/vendors/github")).toBe(vendorProfileParamsSchema);
    expect(paramsSchemaFor("/vendors/github/incidents/x/compare")).toBe(compareParamsSchema);
    expect(paramsSchemaFor("/vendors/github/incidents/x/export.md")).toBeNull();
  });
});
