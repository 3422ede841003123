import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { headingAnchors, markdownLinks } from "@/tests/docs/markdown-links";

const ROOT = path.join(__dirname, "..", "..");
const FILES = ["README.md", ...fs.readdirSync(path.join(ROOT, "docs"), { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];

/** What a link inside the repository fails to reach, or null. */
function brokenLink(from: string, target: string): string | null {
  const [file = "", anchor] = target.split("#");
  const resolved = file === "" ? path.join(ROOT, from) : path.resolve(path.dirname(path.join(ROOT, from)), decodeURIComponent(file));
  if (!resolved.startsWith(`${ROOT}${path.sep}`)) return "outside the repository";
  if (!fs.existsSync(resolved)) return "no such file";
  if (file.endsWith("/") !== fs.statSync(resolved).isDirectory()) return "a folder must end with / and a file must not";
  if (anchor === undefined) return null;
  if (!resolved.endsWith(".md")) return "an anchor into a file that is not Markdown";
  return headingAnchors(fs.readFileSync(resolved, "utf8")).has(anchor) ? null : `no heading for #${anchor}`;
}

describe("links in the README and docs/", () => {
  it("finds the pages to check", () => {
    expect(FILES).toEqual(expect.arrayContaining(["README.md", "docs/operating.md", "docs/platforms.md", "docs/data-model.md"]));
  });

  it.each(FILES)("every relative link and image in %s reaches a file, and a heading where it names one", (file) => {
    const broken = markdownLinks(fs.readFileSync(path.join(ROOT, file), "utf8"))
      .filter((link) => !/^[a-z][a-z+.-]*:/i.test(link.target))
      .map((link) => ({ ...link, problem: brokenLink(file, link.target) }))
      .filter((link) => link.problem !== null)
      .map((link) => `${file}:${link.line} ${link.target}: ${link.problem}`);
    expect(broken).toEqual([]);
  });
});
