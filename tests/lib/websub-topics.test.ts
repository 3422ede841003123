import { describe, expect, it } from "vitest";
import { feedTopics } from "@/lib/websub-topics";

const ORIGIN = "https://redline.example.org";

describe("feedTopics", () => {
  it("names the global, kind, vendor, vendor-kind and incident feeds of a version in all three formats", () => {
    const topics = feedTopics(ORIGIN, [{ vendorSlug: "acme", providerId: "k3x9", kinds: ["incident-new"] }]);
    const paths = ["/feed", "/kinds/incident-new/feed", "/vendors/acme/feed", "/vendors/acme/kinds/incident-new/feed", "/vendors/acme/incidents/k3x9/feed"];
    expect(topics).toEqual(paths.flatMap((p) => ["atom", "json", "rss"].map((f) => `${ORIGIN}${p}.${f}`)).sort());
  });

  it("names the feeds of the watchlists that show the version", () => {
    const topics = feedTopics(ORIGIN, [{ vendorSlug: "acme", providerId: "k3x9", kinds: [], watchlists: ["team", "ops"] }]);
    for (const name of ["team", "ops"]) for (const f of ["atom", "json", "rss"]) expect(topics).toContain(`${ORIGIN}/watch/${name}/feed.${f}`);
  });

  it("names each feed once when several versions of one vendor share it", () => {
    const topics = feedTopics(ORIGIN, [
      { vendorSlug: "acme", providerId: "a", kinds: ["update-posted", "status-changed"] },
      { vendorSlug: "acme", providerId: "b", kinds: ["update-posted"] },
    ]);
    expect(new Set(topics).size).toBe(topics.length);
    expect(topics.filter((t) => t.endsWith("/vendors/acme/feed.atom"))).toHaveLength(1);
    expect(topics.filter((t) => t.includes("/incidents/")).length).toBe(6);
    expect(topics).toHaveLength(3 * (1 + 2 + 1 + 2 + 2));
  });

  it("percent-encodes a vendor slug or incident id that a URL cannot hold as it is", () => {
    const topics = feedTopics(ORIGIN, [{ vendorSlug: "a b", providerId: "x/y", kinds: [] }]);
    expect(topics).toContain(`${ORIGIN}/vendors/a%20b/feed.atom`);
    for (const topic of topics) expect(() => new URL(topic)).not.toThrow();
    expect(topics.some((t) => t.includes(" "))).toBe(false);
  });

  it("names nothing when nothing was recorded", () => {
    expect(feedTopics(ORIGIN, [])).toEqual([]);
  });
});
