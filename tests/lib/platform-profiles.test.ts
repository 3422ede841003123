import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PLATFORM_PROFILES, platformProfileOf } from "@/lib/platform-profiles";
import { readNowRules } from "@/lib/now-rules";
import { feedKindOf } from "@/lib/vendor-now";
import { PLATFORMS } from "@/scrapers/platforms";

const ROOT = path.resolve(__dirname, "../..");

function sourcesUnder(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { recursive: true, encoding: "utf8" })
    .filter((file) => /\.tsx?$/.test(file))
    .map((file) => path.join(dir, file));
}

describe("platform profiles", () => {
  it("are what every platform declares, one entry per platform Redline reads", () => {
    expect(Object.keys(PLATFORM_PROFILES).sort()).toEqual(PLATFORMS.map((p) => p.name).sort());
    for (const platform of PLATFORMS) expect(platformProfileOf(platform.name), platform.name).toBe(platform.profile);
  });

  it("tell the Now rules what each feed can say of an incident ending, and nothing for an unknown name", () => {
    const { profileOf } = readNowRules();
    const kindOf = (name: string) => {
      const profile = profileOf(name);
      return profile && feedKindOf(profile);
    };
    expect(kindOf("statuspage-summary")).toMatchObject({ lists: "active", statesEnd: true });
    expect(kindOf("statuspage-incidents")).toMatchObject({ lists: "recent", statesEnd: true });
    expect(kindOf("rss")).toMatchObject({ lists: "recent", statesEnd: false });
    expect(kindOf("no-such-platform")).toBeNull();
    expect(kindOf("toString")).toBeNull();
  });

  it("reach the pages without the parsers: app/, components/ and lib/ import nothing from scrapers/", () => {
    const offenders = ["app", "components", "lib"].flatMap(sourcesUnder).filter((file) => /from "@\/scrapers\//.test(fs.readFileSync(path.join(ROOT, file), "utf8")));
    expect(offenders).toEqual([]);
  });
});
