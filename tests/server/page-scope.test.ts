import { describe, expect, it } from "vitest";
import { pageScopeOf, showsAnyOf, showsChange } from "@/server/page-scope";

const change = (vendorSlug: string | null, providerId: string | null = null) => ({ seq: 1, vendorSlug, providerId });

describe("page scope", () => {
  it("reads an incident's pages, exports, feeds and API answers as that incident's", () => {
    for (const path of ["/vendors/acme/incidents/42", "/vendors/acme/incidents/42/versions/3", "/vendors/acme/incidents/42/compare", "/vendors/acme/incidents/42/feed.atom", "/api/v1/vendors/acme/incidents/42/export.json"]) {
      expect(pageScopeOf(path)).toEqual({ kind: "incident", vendorSlug: "acme", providerId: "42" });
    }
    expect(pageScopeOf("/vendors/acme/incidents/~6f70732f31")).toEqual({ kind: "incident", vendorSlug: "acme", providerId: "ops/1" });
  });

  it("reads a vendor's lists and feeds as the vendor's, and the rest as global", () => {
    expect(pageScopeOf("/vendors/acme/changes")).toEqual({ kind: "vendor", vendorSlug: "acme" });
    expect(pageScopeOf("/vendors/acme/kinds/postmortem/feed.rss")).toEqual({ kind: "vendor", vendorSlug: "acme" });
    // An address no incident key can make is placed no finer than its vendor.
    expect(pageScopeOf("/vendors/acme/incidents/~zz")).toEqual({ kind: "vendor", vendorSlug: "acme" });
    for (const path of ["/", "/search", "/feed.json", "/kinds/postmortem/feed.atom", "/api/v1/changes", "/api/v1/incidents"]) expect(pageScopeOf(path)).toEqual({ kind: "global" });
  });

  it("says a change concerns its incident, its vendor's lists and every global list, and no other vendor", () => {
    const scopes = ["/", "/vendors/b/changes", "/vendors/b/incidents/1", "/vendors/b/incidents/2", "/vendors/a/changes", "/vendors/a/incidents/1"].map(pageScopeOf);
    const shown = (c: ReturnType<typeof change>) => scopes.map((s) => showsChange(s, c));
    expect(shown(change("b", "1"))).toEqual([true, true, true, false, false, false]);
    expect(shown(change("b"))).toEqual([true, true, true, true, false, false]);
    expect(shown(change(null))).toEqual([true, true, true, true, true, true]);
    // The batched form agrees with the one-by-one rule.
    const batch = [change("b", "1"), change("a")];
    expect(scopes.map(showsAnyOf(batch))).toEqual(scopes.map((s) => batch.some((c) => showsChange(s, c))));
    expect(scopes.map(showsAnyOf([]))).toEqual(scopes.map(() => false));
  });
});
