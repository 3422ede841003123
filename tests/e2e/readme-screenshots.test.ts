import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Page } from "playwright";
import { afterAll, describe, expect, it } from "vitest";
import { startE2eApp } from "@/tests/e2e/support/e2e-app";

/**
 * The pictures the README shows, taken of the seeded archive as a person sees it: the first screen
 * of each page, 1,280 px wide, in the light scheme. `npm run screenshots` runs this file with
 * REDLINE_SCREENSHOT_DIR=docs/images to renew the committed ones; otherwise they go to a
 * temporary folder and are only checked.
 */
const app = startE2eApp("readme-screenshots");

const VIEWPORT = { width: 1_280, height: 900 };
const OUT_DIR = process.env.REDLINE_SCREENSHOT_DIR
  ? path.resolve(process.env.REDLINE_SCREENSHOT_DIR)
  : fs.mkdtempSync(path.join(os.tmpdir(), "redline-readme-screenshots-"));

afterAll(() => {
  if (!process.env.REDLINE_SCREENSHOT_DIR) fs.rmSync(OUT_DIR, { recursive: true, force: true });
});

interface PixelStats {
  width: number;
  height: number;
  /** Share of pixels that differ from the top-left one (the page's background). */
  inkShare: number;
  /** Distinct colours, each channel cut to 4 bits. */
  colours: number;
}

/** Decodes a PNG in the browser (no request leaves the page) and measures what it shows. */
function measurePng(page: Page, file: string): Promise<PixelStats> {
  return page.evaluate(async (base64) => {
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const bitmap = await createImageBitmap(new Blob([bytes], { type: "image/png" }));
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const context = canvas.getContext("2d");
    if (!context) throw new Error("no 2d context");
    context.drawImage(bitmap, 0, 0);
    const { data } = context.getImageData(0, 0, bitmap.width, bitmap.height);
    const colours = new Set<number>();
    let ink = 0;
    for (let i = 0; i < data.length; i += 4) {
      const [r, g, b] = [data[i] ?? 0, data[i + 1] ?? 0, data[i + 2] ?? 0];
      if (r !== data[0] || g !== data[1] || b !== data[2]) ink += 1;
      colours.add(((r >> 4) << 8) | ((g >> 4) << 4) | (b >> 4));
    }
    return { width: bitmap.width, height: bitmap.height, inkShare: ink / (data.length / 4), colours: colours.size };
  }, fs.readFileSync(file).toString("base64"));
}

async function capture(page: Page, pathname: string, file: string): Promise<string> {
  const response = await page.goto(pathname);
  expect(response?.status(), pathname).toBe(200);
  const target = path.join(OUT_DIR, file);
  await page.screenshot({ path: target });
  return target;
}

async function expectAPicture(page: Page, file: string): Promise<void> {
  const stats = await measurePng(page, file);
  expect({ width: stats.width, height: stats.height }).toEqual(VIEWPORT);
  // A blank or error page is one colour with a few lines of text; these pages are full of it.
  expect(stats.inkShare, file).toBeGreaterThan(0.04);
  expect(stats.colours, file).toBeGreaterThan(40);
  expect(fs.statSync(file).size, file).toBeLessThan(300 * 1024);
}

describe("the README's screenshots", () => {
  it("shows the home page with the latest quiet edits, one screen at 1,280 px in the light scheme", async () => {
    const page = await app().newPage({ viewport: VIEWPORT, colorScheme: "light" });
    const file = await capture(page, "/", "home.png");
    expect(await page.locator("ol.change-list > li").count()).toBeGreaterThan(0);
    await expectAPicture(page, file);
  });

  it("shows a change page with the rewritten words and a field's Before and After", async () => {
    const page = await app().newPage({ viewport: VIEWPORT, colorScheme: "light" });
    const file = await capture(page, "/vendors/acme/incidents/acmeapi00001/versions/3", "change.png");
    const blocks = page.locator(".what-changed > .change-block");
    expect(await blocks.locator(".side-label").allTextContents()).toEqual(expect.arrayContaining(["Before", "After", "Word changes"]));
    await expect(blocks.locator("del").first().isVisible()).resolves.toBe(true);
    await expectAPicture(page, file);
  });
});
