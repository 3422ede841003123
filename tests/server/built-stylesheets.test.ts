import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { builtStylesheets } from "@/server/http/built-stylesheets";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "redline-built-css-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("builtStylesheets", () => {
  it("reads the stylesheets the build linked from its prerendered not-found page, each once, and none where there is no build", () => {
    const build = path.join(dir, "build");
    fs.mkdirSync(path.join(build, "server", "app"), { recursive: true });
    fs.writeFileSync(
      path.join(build, "server", "app", "_not-found.html"),
      '<head><link rel="stylesheet" href="/_next/static/chunks/a1.css" data-precedence="next"/><link rel="stylesheet" href="/_next/static/chunks/b2.css"/>' +
        '<link rel="stylesheet" href="/_next/static/chunks/a1.css"/><link rel="stylesheet" href="https://elsewhere.test/x.css"/></head>',
    );
    expect(builtStylesheets(build)).toEqual(["/_next/static/chunks/a1.css", "/_next/static/chunks/b2.css"]);
    expect(builtStylesheets(path.join(dir, "no-build"))).toEqual([]);
  });
});
