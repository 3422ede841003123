import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const CSS = fs.readFileSync(path.join(__dirname, "..", "..", "app", "globals.css"), "utf8");

/** The custom properties of the first `:root { … }` block after `from` in the stylesheet. */
function tokensAfter(from: number): Map<string, string> {
  const start = CSS.indexOf(":root {", from);
  const end = CSS.indexOf("}", start);
  if (start < 0 || end < 0) throw new Error("globals.css: no :root block");
  const tokens = new Map<string, string>();
  for (const [, name, value] of CSS.slice(start, end).matchAll(/(--[\w-]+):\s*([^;]+);/g)) if (name && value) tokens.set(name, value.trim());
  return tokens;
}

const light = tokensAfter(0);
const darkAt = CSS.indexOf("@media (prefers-color-scheme: dark)");
const dark = new Map([...light, ...tokensAfter(darkAt)]);

function luminance(hex: string): number {
  const match = /^#([0-9a-f]{6})$/i.exec(hex);
  if (!match?.[1]) throw new Error(`not a #rrggbb colour: ${hex}`);
  const digits = match[1];
  const [r = 0, g = 0, b = 0] = [0, 2, 4].map((i) => {
    const s = parseInt(digits.slice(i, i + 2), 16) / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(tokens: Map<string, string>, fg: string, bg: string): number {
  const [a, b] = [fg, bg].map((name) => {
    const value = tokens.get(name);
    if (value === undefined) throw new Error(`globals.css has no ${name}`);
    return luminance(value);
  });
  const [high = 0, low = 0] = [a ?? 0, b ?? 0].sort((x, y) => y - x);
  return Math.round(((high + 0.05) / (low + 0.05)) * 100) / 100;
}

/** Text drawn on a background somewhere in the site: [text token, background token]. */
const TEXT_PAIRS: ReadonlyArray<readonly [string, string]> = [
  ...["--bg", "--soft"].flatMap((bg) => ["--fg", "--muted", "--link", "--accent", "--ok", "--danger"].map((fg) => [fg, bg] as const)),
  ["--bg", "--fg"],
  ["--warn-fg", "--warn-bg"],
  ["--del-fg", "--del-bg"],
  ["--ins-fg", "--ins-bg"],
  ["--link", "--del-bg"],
  ["--link", "--ins-bg"],
  ...["critical", "major", "minor", "none", "maintenance"].map((i) => [`--impact-${i}-fg`, `--impact-${i}-bg`] as const),
  ...["edit", "add", "remove", "info", "neutral"].map((k) => [`--kind-${k}-fg`, `--kind-${k}-bg`] as const),
];

describe("the design tokens in app/globals.css", () => {
  it.each([["light", light], ["dark", dark]] as const)("every text and background pair meets WCAG AA (4.5:1) in the %s scheme", (_scheme, tokens) => {
    const failing = TEXT_PAIRS.map(([fg, bg]) => ({ fg, bg, ratio: contrast(tokens, fg, bg) })).filter((pair) => pair.ratio < 4.5);
    expect(failing).toEqual([]);
  });

  it.each([["light", light], ["dark", dark]] as const)("the focus ring stands out from the page at 3:1 in the %s scheme", (_scheme, tokens) => {
    expect(contrast(tokens, "--focus", "--bg")).toBeGreaterThanOrEqual(3);
  });

  it("the dark scheme redefines every colour token, so none is left light", () => {
    const colours = [...light].filter(([, value]) => value.startsWith("#")).map(([name]) => name);
    const darkOwn = tokensAfter(darkAt);
    expect(colours.filter((name) => !darkOwn.has(name))).toEqual([]);
  });
});
