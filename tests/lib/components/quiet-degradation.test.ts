import { describe, expect, it } from "vitest";
import {
  describeQuietDegradation, foldComponents, foldedNames, groupsOf, inGroup, namesComponent, type QuietDegradationView, viewQuietDegradation,
} from "@/lib/components/quiet-degradation";
import { capPerVendor } from "@/lib/components/quiet-degradation-list";
import { ENTRY_KIND_NAMES, entryKindLabel, entryKindNameSchema, splitEntryKinds } from "@/lib/entry-kinds";

const named = (...names: string[]) => names.map((name, i) => ({ id: `c${i}`, name, group: null }));
const stretch = (slug: string, from: string, components = named("API")): QuietDegradationView => ({ vendor: { slug, name: slug.toUpperCase() }, from, until: null, components });

describe("a quiet degradation as readers meet it", () => {
  it("names its components from the directory as last listed, in name order, groups by their own component's name, unknown keys as themselves", () => {
    const directory = new Map([
      ["api", { key: "api", name: "REST API", groupKey: "core", isGroup: false }],
      ["core", { key: "core", name: "Core platform", groupKey: null, isGroup: true }],
      ["lone", { key: "lone", name: "Lone", groupKey: "gone", isGroup: false }],
    ]);
    const view = viewQuietDegradation({ id: 1, vendorId: 1, vendorSlug: "acme", vendorName: "Acme", from: "2026-03-01T10:00:00.000Z", until: null, components: ["api", "lone", "x9"] }, directory);
    expect(view.components).toEqual([
      { id: "lone", name: "Lone", group: "gone" },
      { id: "api", name: "REST API", group: "Core platform" },
      { id: "x9", name: "x9", group: null },
    ]);
    expect(groupsOf(view)).toEqual(["gone", "Core platform"]);
    expect(inGroup(view, "core PLATFORM")).toBe(true);
    expect(inGroup(view, "Europe")).toBe(false);
    expect(namesComponent(view, "rest api")).toBe(true);
  });

  it("folds the components past the first three, never into a lone '+1 more'", () => {
    expect(foldedNames(named("A", "B", "C"))).toBe("A, B, C");
    expect(foldedNames(named("A", "B", "C", "D"))).toBe("A, B, C, D");
    expect(foldedNames(named("A", "B", "C", "D", "E", "F"))).toBe("A, B, C +3 more");
    expect(foldComponents(named(...Array.from({ length: 300 }, (_, i) => `DC ${i}`))).more).toBe(297);
  });

  it("says what was degraded, for how long, or that it goes on", () => {
    const ended = { ...stretch("acme", "2026-03-01T10:10:00.000Z", named("REST API", "DNS")), until: "2026-03-01T10:40:00.000Z" };
    expect(describeQuietDegradation(ended)).toBe(
      "REST API and DNS were degraded or out while ACME had no incident open, from 2026-03-01 10:10 UTC to 2026-03-01 10:40 UTC (30 min).",
    );
    expect(describeQuietDegradation(stretch("acme", "2026-03-01T11:00:00.000Z"))).toBe(
      "API was degraded or out while ACME had no incident open, since 2026-03-01 11:00 UTC (ongoing when last observed).",
    );
  });
});

describe("the home page's list", () => {
  it("keeps each vendor's newest three and folds the rest into one line after its third", () => {
    const items = [stretch("cdn", "9"), stretch("cdn", "8"), stretch("calm", "7"), stretch("cdn", "6"), stretch("cdn", "5"), stretch("cdn", "4"), stretch("calm", "3")];
    const entries = capPerVendor(items, 3).map((e) => (e.kind === "stretch" ? `${e.item.vendor.slug}@${e.item.from}` : `more ${e.vendor.slug} ${e.count}`));
    expect(entries).toEqual(["cdn@9", "cdn@8", "calm@7", "cdn@6", "more cdn 2", "calm@3"]);
  });
});

describe("entry kinds", () => {
  it("are the change kinds and the quiet degradation, by one name each", () => {
    expect(ENTRY_KIND_NAMES).toContain("update-edited");
    expect(entryKindNameSchema.parse("quiet-degradation")).toBe("quiet-degradation");
    expect(entryKindNameSchema.safeParse("quiet").success).toBe(false);
    expect(entryKindLabel("quiet-degradation")).toBe("Quiet degradation");
    expect(entryKindLabel("update-edited")).toBe("Update edited");
  });

  it("split picked kinds into the changes they select and whether quiet degradations are in", () => {
    expect(splitEntryKinds(undefined)).toEqual({ changeKinds: undefined, quiet: true });
    expect(splitEntryKinds(["quiet-degradation"])).toEqual({ changeKinds: null, quiet: true });
    expect(splitEntryKinds(["update-edited", "quiet-degradation"])).toEqual({ changeKinds: ["update-edited"], quiet: true });
    expect(splitEntryKinds(["update-edited"])).toEqual({ changeKinds: ["update-edited"], quiet: false });
  });
});
