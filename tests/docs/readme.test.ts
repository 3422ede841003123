import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CHANGE_KIND_INFO } from "@/lib/change-kinds";
import { describeStatements } from "@/lib/derive/source-profile";
import { LIVE_PLATFORMS } from "@/scrapers/live";
import { PLATFORMS } from "@/scrapers/platforms";

const readme = fs.readFileSync(path.join(__dirname, "..", "..", "README.md"), "utf8");

describe("the README", () => {
  it("begins with the command that starts Redline and the one that runs every test", () => {
    const firstBlock = /```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? "";
    expect(firstBlock).toMatch(/npm start/);
    expect(firstBlock).toMatch(/npm test/);
  });

  it("documents every change kind with the meaning the code uses", () => {
    for (const [kind, info] of Object.entries(CHANGE_KIND_INFO)) {
      expect(readme).toContain(`| \`${kind}\` | ${info.description} |`);
    }
  });

  it("lists every platform the import command accepts, with what it states as its profile says", () => {
    for (const platform of PLATFORMS) {
      const row = readme.split("\n").find((line) => line.startsWith(`| \`${platform.name}\` |`));
      expect(row, platform.name).toBeDefined();
      expect(row?.split(" | ").at(-1), platform.name).toBe(`${describeStatements(platform.profile)} |`);
    }
  });

  it("names every live platform a vendor can be polled with", () => {
    for (const platform of LIVE_PLATFORMS) expect(readme).toContain(`\`${platform.name}\``);
  });
});
