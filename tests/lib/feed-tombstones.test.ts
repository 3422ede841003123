import { describe, expect, it } from "vitest";
import { feedTombstones, type TombstoneCandidate } from "@/lib/feed-tombstones";
import { changeItemId } from "@/lib/render/feed";

const ORIGIN = "https://redline.example.org";
const T = ["2026-03-01T10:00:00.000Z", "2026-03-01T11:00:00.000Z", "2026-03-01T12:00:00.000Z"] as const;
const deletion: TombstoneCandidate = { vendorSlug: "acme", vendorName: "Acme Cloud", providerId: "inc1", observedAt: T[2], kinds: ["incident-deleted"] };

describe("feedTombstones", () => {
  it("tombstones each entry the deleted incident had before its deletion, not the deletion itself", () => {
    const tombstones = feedTombstones(ORIGIN, [deletion], () => [...T]);
    expect(tombstones.map((t) => t.ref)).toEqual([changeItemId("acme", "inc1", T[0]), changeItemId("acme", "inc1", T[1])]);
    for (const t of tombstones) {
      expect(t.when).toBe(T[2]);
      expect(t.link).toBe(`${ORIGIN}/vendors/acme/incidents/inc1`);
      expect(t.comment).toContain("Acme Cloud deleted this incident");
    }
  });

  it("tombstones nothing for an incident that is no longer deleted", () => {
    expect(feedTombstones(ORIGIN, [deletion], () => null)).toEqual([]);
  });

  it("ignores changes that are not deletions, and an incident deleted twice gets one set, as of the newest deletion", () => {
    const asked: string[] = [];
    const history = (slug: string, id: string) => {
      asked.push(`${slug}/${id}`);
      return [T[0], T[1], T[2], "2026-03-02T00:00:00.000Z"];
    };
    const newer = { ...deletion, observedAt: "2026-03-02T00:00:00.000Z" };
    const edit = { ...deletion, providerId: "other", kinds: ["update-posted" as const] };
    const tombstones = feedTombstones(ORIGIN, [newer, edit, deletion], history);
    expect(asked).toEqual(["acme/inc1"]);
    expect(tombstones).toHaveLength(3);
    expect(new Set(tombstones.map((t) => t.when))).toEqual(new Set([newer.observedAt]));
  });
});
