import { describe, expect, it } from "vitest";
import { pageScopeOf, showsAnyOf, showsChange } from "@/server/page-scope";

const change = (vendorSlug: string | null, providerId: string | null = null, kinds: string[] | null = null) => ({ seq: 1, vendorSlug, providerId, kinds });

describe("page scope", () => {
  it("reads an incident's pages, exports, feeds and API answers as that incident's", () => {
    for (const path of ["/vendors/acme/incidents/42", "/vendors/acme/incidents/42/versions/3", "/vendors/acme/incidents/42/compare", "/vendors/acme/incidents/42/feed.atom", "/api/v1/vendors/acme/incidents/42/export.json"]) {
      expect(pageScopeOf(path)).toEqual({ kind: "incident", vendorSlug: "acme", providerId: "42" });
    }
    expect(pageScopeOf("/vendors/acme/incidents/~6f70732f31")).toEqual({ kind: "incident", vendorSlug: "acme", providerId: "ops/1" });
  });

  it("reads a vendor's lists and feeds as the vendor's, and the rest as global", () => {
    expect(pageScopeOf("/vendors/acme/changes")).toEqual({ kind: "vendor", vendorSlug: "acme" });
    expect(pageScopeOf("/vendors/acme/kinds/postmortem-edited/feed.rss")).toEqual({ kind: "vendor", vendorSlug: "acme", changeKinds: ["postmortem-edited"] });
    // An address no incident key can make is placed no finer than its vendor.
    expect(pageScopeOf("/vendors/acme/incidents/~zz")).toEqual({ kind: "vendor", vendorSlug: "acme" });
    for (const path of ["/", "/search", "/feed.json", "/api/v1/changes", "/api/v1/incidents"]) expect(pageScopeOf(path)).toEqual({ kind: "global" });
  });

  it("reads a kind feed as carrying its kind and the kinds its query adds, and a list or a feed filtered otherwise as carrying any", () => {
    expect(pageScopeOf("/kinds/postmortem-edited/feed.atom")).toEqual({ kind: "global", changeKinds: ["postmortem-edited"] });
    expect(pageScopeOf("/kinds/postmortem-edited/feed.json", new URLSearchParams("kind=update-edited&kind=postmortem-edited"))).toEqual({
      kind: "global",
      changeKinds: ["postmortem-edited", "update-edited"],
    });
    // Filtered by the incident's current impact or components, it may lose or gain a version when any version moves them.
    expect(pageScopeOf("/kinds/postmortem-edited/feed.json", new URLSearchParams("impact=major"))).toEqual({ kind: "global" });
    expect(pageScopeOf("/vendors/acme/kinds/postmortem-edited/feed.rss", new URLSearchParams("component=API"))).toEqual({ kind: "vendor", vendorSlug: "acme" });
    expect(pageScopeOf("/", new URLSearchParams("kind=update-edited"))).toEqual({ kind: "global" });
    expect(pageScopeOf("/vendors/acme/changes", new URLSearchParams("kind=update-edited"))).toEqual({ kind: "vendor", vendorSlug: "acme" });
  });

  it("lets a quiet degradation written (a change of its vendor, no incident's) evict its vendor's lists and the quiet degradations' feeds and API lists, and a version of another kind leave those feeds kept", () => {
    const paths = ["/kinds/quiet-degradation/feed.atom", "/vendors/v/kinds/quiet-degradation/feed.atom", "/vendors/w/kinds/quiet-degradation/feed.atom", "/api/v1/vendors/v/quiet-degradations", "/api/v1/quiet-degradations", "/"];
    const scopes = paths.map((p) => pageScopeOf(p));
    expect(scopes[3]).toEqual({ kind: "vendor", vendorSlug: "v" });
    expect(scopes.map(showsAnyOf([change("v")]))).toEqual([true, true, false, true, true, true]);
    expect(scopes.map(showsAnyOf([change("v", "1", ["update-posted"])]))).toEqual([false, false, false, true, true, true]);
  });

  it("says a version concerns the kind feeds of its kinds only, and a vendor's change or unknown kinds concern them all", () => {
    const scopes = ["/kinds/a/feed.rss", "/kinds/b/feed.rss", "/vendors/v/kinds/a/feed.rss", "/vendors/v/kinds/b/feed.rss", "/vendors/w/kinds/a/feed.rss"].map((p) => pageScopeOf(p));
    const shown = (c: ReturnType<typeof change>) => scopes.map((s) => showsChange(s, c));
    expect(shown(change("v", "1", ["a", "c"]))).toEqual([true, false, true, false, false]);
    expect(shown(change("v", "1", []))).toEqual([false, false, false, false, false]);
    expect(shown(change("v", "1"))).toEqual([true, true, true, true, false]);
    expect(shown(change("v"))).toEqual([true, true, true, true, false]);
    expect(shown(change(null, "1", ["b"]))).toEqual([false, true, false, true, false]);
    expect(shown(change(null))).toEqual([true, true, true, true, true]);
  });

  it("judges a batch of changes exactly as it judges them one by one", () => {
    const addresses = ["/", "/kinds/a/feed.rss", "/kinds/b/feed.rss", "/vendors/v/changes", "/vendors/v/kinds/a/feed.rss", "/vendors/v/kinds/b/feed.rss", "/vendors/w/kinds/a/feed.rss", "/vendors/v/incidents/1", "/vendors/w/incidents/1"];
    const scopes = addresses.map((p) => pageScopeOf(p));
    const kinds = [null, [], ["a"], ["b", "c"]];
    const singles = [null, "v", "w"].flatMap((vendor) => [null, "1", "2"].flatMap((id) => (id === null ? [change(vendor)] : kinds.map((k) => change(vendor, id, k)))));
    for (const first of singles) {
      for (const second of singles) {
        const batch = [first, second];
        expect(scopes.map(showsAnyOf(batch)), JSON.stringify(batch)).toEqual(scopes.map((s) => batch.some((c) => showsChange(s, c))));
      }
    }
  });

  it("reads the maintenance calendars as global and as their vendor's, so a version evicts its vendor's calendar and the global one only", () => {
    const calendars = ["/maintenance.ics", "/vendors/b/maintenance.ics", "/vendors/a/maintenance.ics"].map((p) => pageScopeOf(p));
    expect(calendars).toEqual([{ kind: "global" }, { kind: "vendor", vendorSlug: "b" }, { kind: "vendor", vendorSlug: "a" }]);
    expect(calendars.map((s) => showsChange(s, change("b", "m1", ["created"])))).toEqual([true, true, false]);
    expect(calendars.map(showsAnyOf([change("b", "m1", ["created"])]))).toEqual([true, true, false]);
  });

  it("says a change concerns its incident, its vendor's lists and every global list, and no other vendor", () => {
    const scopes = ["/", "/vendors/b/changes", "/vendors/b/incidents/1", "/vendors/b/incidents/2", "/vendors/a/changes", "/vendors/a/incidents/1"].map((p) => pageScopeOf(p));
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
