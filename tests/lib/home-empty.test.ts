import { describe, expect, it } from "vitest";
import { describeEmptyHome } from "@/lib/home-empty";

const first = { filtered: false, paged: false };
const archive = { vendors: 12, polledVendors: 12, incidents: 37 };

describe("describeEmptyHome", () => {
  it("says an archive without edits has none yet, how many incidents it holds, and leads to the newest changes", () => {
    expect(describeEmptyHome({ tab: "quiet", ...first }, archive, "/")).toEqual({
      text: "No vendor has changed anything after the fact yet; 37 incidents archived.",
      link: { href: "/?show=all", label: "See every change, newest first" },
    });
    expect(describeEmptyHome({ tab: "quiet", ...first }, { ...archive, incidents: 1 }, "/").text).toBe("No vendor has changed anything after the fact yet; 1 incident archived.");
    const degradations = describeEmptyHome({ tab: "degradations", ...first }, archive, "/?show=degradations");
    expect(degradations.text).toMatch(/^No quiet degradation yet: .*; 37 incidents archived\.$/);
    expect(degradations.link?.href).toBe("/?show=all");
  });

  it("says an archive without vendors is empty and how to add them, on every tab", () => {
    for (const tab of ["quiet", "degradations", "new", "all"] as const) {
      const empty = describeEmptyHome({ tab, ...first }, { vendors: 0, polledVendors: 0, incidents: 0 }, "/");
      expect(empty.text).toMatch(/^This archive is empty: it has no vendor yet\. .*npm start/);
      expect(empty.command).toMatch(/^npm run redline -- vendors add /);
      expect(empty.text).not.toContain("match");
    }
  });

  it("prints the command for the archive the server uses", () => {
    const empty = describeEmptyHome({ tab: "quiet", ...first }, { vendors: 0, polledVendors: 0, incidents: 0 }, "/", (args) => `npm run redline -- ${args} --db data/demo.db`);
    expect(empty.command).toMatch(/^npm run redline -- vendors add .* --db data\/demo\.db$/);
  });

  it("says no incident is archived yet while vendors are polled, or that none is polled", () => {
    for (const tab of ["quiet", "degradations", "new", "all"] as const) {
      expect(describeEmptyHome({ tab, ...first }, { vendors: 159, polledVendors: 159, incidents: 0 }, "/").text).toBe(
        "No incident archived yet. Redline polls 159 vendors: their incidents appear here as polls find them (npm start runs a poller).",
      );
    }
    expect(describeEmptyHome({ tab: "all", ...first }, { vendors: 2, polledVendors: 0, incidents: 0 }, "/").text).toBe(
      "No incident archived yet. None of its 2 vendors are polled: add one with a URL, or import snapshots.",
    );
  });

  it("keeps 'No changes match' for a filter that matches nothing, with a way to clear it", () => {
    expect(describeEmptyHome({ tab: "quiet", filtered: true, paged: false }, null, "/")).toEqual({ text: "No changes match.", link: { href: "/", label: "Clear the filter" } });
    expect(describeEmptyHome({ tab: "custom", filtered: true, paged: false }, null, "/")).toMatchObject({ text: "No changes match.", link: { href: "/" } });
    expect(describeEmptyHome({ tab: "degradations", filtered: true, paged: false }, null, "/?show=degradations")).toEqual({
      text: "No quiet degradation matches.",
      link: { href: "/?show=degradations", label: "Clear the filter" },
    });
  });

  it("says a page past the last has no older changes, and leads back to the newest", () => {
    expect(describeEmptyHome({ tab: "new", filtered: false, paged: true }, null, "/?show=new")).toEqual({ text: "No older changes.", link: { href: "/?show=new", label: "Back to the newest" } });
  });
});
