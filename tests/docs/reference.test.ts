import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CHANGE_KIND_INFO } from "@/lib/change-kinds";
import { describeStatements } from "@/lib/derive/source-profile";
import { LIVE_PLATFORMS } from "@/scrapers/live";
import { PLATFORMS } from "@/scrapers/platforms";

const DOCS = path.join(__dirname, "..", "..", "docs");
const dataModel = fs.readFileSync(path.join(DOCS, "data-model.md"), "utf8");
const platforms = fs.readFileSync(path.join(DOCS, "platforms.md"), "utf8");

describe("the reference pages under docs/", () => {
  it("document every change kind with the meaning the code uses (data-model.md)", () => {
    for (const [kind, info] of Object.entries(CHANGE_KIND_INFO)) {
      expect(dataModel).toContain(`| \`${kind}\` | ${info.description} |`);
    }
  });

  it("list every platform the import command accepts, with what it states as its profile says (platforms.md)", () => {
    for (const platform of PLATFORMS) {
      const row = platforms.split("\n").find((line) => line.startsWith(`| \`${platform.name}\` |`));
      expect(row, platform.name).toBeDefined();
      expect(row?.split(" | ").at(-1), platform.name).toBe(`${describeStatements(platform.profile)} |`);
    }
  });

  it("name every live platform a vendor can be polled with (platforms.md)", () => {
    for (const platform of LIVE_PLATFORMS) expect(platforms).toContain(`\`${platform.name}\``);
  });
});
