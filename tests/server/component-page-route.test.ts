import type http from "node:http";
import { describe, expect, it } from "vitest";
import { paths } from "@/lib/incident-key";
import { componentPageParamsSchema, describeParamError, paramsSchemaFor } from "@/lib/page-params";
import { pageScopeOf, showsChange } from "@/server/page-scope";
import { cacheKeyFor } from "@/server/web-server";

describe("a component page's address", () => {
  it("encodes the vendor's key, whatever it holds", () => {
    expect(paths.component("acme", "cmpapi000001")).toBe("/vendors/acme/components/cmpapi000001");
    expect(paths.component("slack", "Login/SSO")).toBe("/vendors/slack/components/Login%2FSSO");
    expect(paths.component("slack", "Apps & integrations")).toBe("/vendors/slack/components/Apps%20%26%20integrations");
  });

  it("is a vendor page for the page cache: kept, and evicted by any change of its vendor only", () => {
    const path = paths.component("slack", "Login/SSO");
    const scope = pageScopeOf(path);
    expect(scope).toEqual({ kind: "vendor", vendorSlug: "slack" });
    expect(showsChange(scope, { seq: 1, vendorSlug: "slack", providerId: null, kinds: null })).toBe(true);
    expect(showsChange(scope, { seq: 1, vendorSlug: "slack", providerId: "inc1", kinds: ["update-posted"] })).toBe(true);
    expect(showsChange(scope, { seq: 1, vendorSlug: "acme", providerId: null, kinds: null })).toBe(false);
    expect(cacheKeyFor({ method: "GET", url: `${path}?days=30`, headers: { host: "a.test" } } as unknown as http.IncomingMessage)).toBe(` ${path}?days=30`);
  });

  it("takes the last 30, 90 or 365 days, or since and until (from and to as well), and nothing else", () => {
    const schema = paramsSchemaFor("/vendors/acme/components/api");
    expect(schema).toBe(componentPageParamsSchema);
    expect(componentPageParamsSchema.parse({ days: "365" })).toEqual({ days: 365, since: undefined, until: undefined });
    expect(componentPageParamsSchema.parse({ from: "2026-01-01", to: "2026-01-31" })).toEqual({ since: "2026-01-01", until: "2026-01-31" });
    const bad = componentPageParamsSchema.safeParse({ days: "7" });
    expect(bad.success ? null : describeParamError(bad.error)).toBe("days: expected 30, 90 or 365");
    const unknown = componentPageParamsSchema.safeParse({ page: "2" });
    expect(unknown.success ? null : describeParamError(unknown.error)).toBe('unknown parameter "page"');
  });
});
