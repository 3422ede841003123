import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { markdownLinks } from "@/tests/docs/markdown-links";

const ROOT = path.join(__dirname, "..", "..");
const readme = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");
const lines = readme.split("\n");
/** A front page, not a manual: what Redline is, pictures, the commands and where to read more. */
const MAX_LINES = 100;
const MAX_IMAGE_BYTES = 300 * 1024;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe("the README", () => {
  it("begins with the command that starts Redline and the one that runs every test", () => {
    expect(lines.slice(0, 3)).toEqual(["# Redline", "", "```sh"]);
    expect(lines[3]).toMatch(/^npm ci && npm start +# /);
    expect(lines[4]).toMatch(/^npm ci && npm test +# /);
    expect(lines[5]).toBe("```");
  });

  it(`is a front page of at most ${MAX_LINES} lines`, () => {
    expect(lines.length).toBeLessThanOrEqual(MAX_LINES);
  });

  it("links every page of the documentation under docs/", () => {
    const targets = new Set(markdownLinks(readme).map((link) => link.target.split("#")[0]));
    const pages = fs.readdirSync(path.join(ROOT, "docs")).filter((name) => name.endsWith(".md"));
    expect(pages.length).toBeGreaterThan(5);
    for (const page of pages) expect(targets, page).toContain(`docs/${page}`);
    expect(targets).toContain("docs/decisions/");
  });

  it(`shows screenshots of the app: PNG files under docs/ of less than ${MAX_IMAGE_BYTES / 1024} KB`, () => {
    const images = markdownLinks(readme).filter((link) => link.image);
    expect(images.length).toBeGreaterThanOrEqual(1);
    for (const { target } of images) {
      expect(target).toMatch(/^docs\/images\/[\w-]+\.png$/);
      const file = path.join(ROOT, target);
      expect(fs.existsSync(file), target).toBe(true);
      expect(fs.readFileSync(file).subarray(0, 8).equals(PNG_SIGNATURE), target).toBe(true);
      expect(fs.statSync(file).size, target).toBeLessThan(MAX_IMAGE_BYTES);
    }
  });
});
