import type { Page } from "playwright";

export interface PageOutline {
  h1Count: number;
  mainCount: number;
  navLabels: Array<string | null>;
  /** Heading levels in document order, e.g. [1, 2, 3, 2]. */
  levels: number[];
  /** "h2 → h4 (Details)" for every heading that skips a level. */
  skips: string[];
}

/** Landmarks and headings as a screen reader lists them. */
export function readOutline(page: Page): Promise<PageOutline> {
  return page.evaluate(() => {
    const headings = Array.from(document.querySelectorAll("h1, h2, h3, h4, h5, h6"));
    const levels = headings.map((h) => Number(h.tagName.slice(1)));
    const skips: string[] = [];
    levels.forEach((level, i) => {
      const previous = i === 0 ? 0 : (levels[i - 1] ?? 0);
      if (level > previous + 1) skips.push(`h${previous} → h${level} (${(headings[i]?.textContent ?? "").trim().slice(0, 60)})`);
    });
    return {
      h1Count: levels.filter((l) => l === 1).length,
      mainCount: document.querySelectorAll("main, [role=main]").length,
      navLabels: Array.from(document.querySelectorAll("nav, [role=navigation]")).map((n) => n.getAttribute("aria-label")),
      levels,
      skips,
    };
  });
}

/** How far the page is wider than the viewport, in CSS pixels (0: no horizontal scroll). */
export function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => (document.scrollingElement?.scrollWidth ?? 0) - window.innerWidth);
}

export interface ContrastProblem {
  text: string;
  element: string;
  color: string;
  background: string;
  ratio: number;
  required: number;
}

/**
 * Every visible element with its own text whose colour is below WCAG AA against the background
 * it is drawn on (4.5:1, or 3:1 for large text). Backgrounds are the first opaque one up the
 * tree, with translucent layers blended in; background images and SVG are not considered.
 */
export function findContrastProblems(page: Page): Promise<ContrastProblem[]> {
  return page.evaluate(() => {
    type Rgba = { r: number; g: number; b: number; a: number };
    const parse = (css: string): Rgba | null => {
      const m = /rgba?\(([^)]+)\)/.exec(css);
      if (!m || m[1] === undefined) return null;
      const [r = 0, g = 0, b = 0, a = 1] = m[1].split(/[\s,/]+/).filter(Boolean).map(Number);
      return { r, g, b, a };
    };
    const over = (top: Rgba, below: Rgba): Rgba => ({
      r: top.r * top.a + below.r * (1 - top.a),
      g: top.g * top.a + below.g * (1 - top.a),
      b: top.b * top.a + below.b * (1 - top.a),
      a: 1,
    });
    const channel = (v: number) => {
      const s = v / 255;
      return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    };
    const luminance = (c: Rgba) => 0.2126 * channel(c.r) + 0.7152 * channel(c.g) + 0.0722 * channel(c.b);
    const canvas = matchMedia("(prefers-color-scheme: dark)").matches ? { r: 18, g: 18, b: 18, a: 1 } : { r: 255, g: 255, b: 255, a: 1 };
    const backgroundOf = (element: Element): Rgba => {
      const layers: Rgba[] = [];
      for (let e: Element | null = element; e; e = e.parentElement) {
        const c = parse(getComputedStyle(e).backgroundColor);
        if (c && c.a > 0) {
          layers.push(c);
          if (c.a >= 1) break;
        }
      }
      return layers.reduceRight((below, top) => over(top, below), canvas);
    };
    const css = (c: Rgba) => `rgb(${Math.round(c.r)}, ${Math.round(c.g)}, ${Math.round(c.b)})`;
    const problems: Array<{ text: string; element: string; color: string; background: string; ratio: number; required: number }> = [];
    for (const element of Array.from(document.body.querySelectorAll("*"))) {
      const own = Array.from(element.childNodes)
        .filter((n) => n.nodeType === Node.TEXT_NODE)
        .map((n) => n.textContent ?? "")
        .join("")
        .trim();
      if (own === "" || element.closest(".visually-hidden, svg, script, style, noscript, [hidden]")) continue;
      const box = element.getBoundingClientRect();
      const style = getComputedStyle(element);
      if (box.width === 0 || box.height === 0 || style.visibility === "hidden" || box.right < 0) continue;
      const background = backgroundOf(element);
      const foreground = parse(style.color);
      if (!foreground) continue;
      const color = over(foreground, background);
      const [light, dark] = [luminance(color), luminance(background)].sort((a, b) => b - a);
      const ratio = ((light ?? 0) + 0.05) / ((dark ?? 0) + 0.05);
      const size = parseFloat(style.fontSize);
      const large = size >= 24 || (Number(style.fontWeight) >= 700 && size >= 18.66);
      const required = large ? 3 : 4.5;
      if (ratio < required) {
        problems.push({
          text: own.slice(0, 50),
          element: `${element.tagName.toLowerCase()}${element.className && typeof element.className === "string" ? `.${element.className.split(" ").join(".")}` : ""}`,
          color: css(color),
          background: css(background),
          ratio: Math.round(ratio * 100) / 100,
          required,
        });
      }
    }
    return problems;
  });
}

/** Table cells squeezed so narrow that their words break mid-word ("report ed", "incide nt"). */
export function findSqueezedCells(page: Page): Promise<string[]> {
  // A column is squeezed when it is narrower than its longest unbreakable word (words break at
  // spaces and after hyphens), so the browser has to split a word mid-way.
  return page.evaluate(() => {
    const context = document.createElement("canvas").getContext("2d");
    if (!context) return ["no canvas to measure text"];
    return Array.from(document.querySelectorAll("td, th")).flatMap((cell) => {
      let longest = 0;
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const parent = node.parentElement;
        if (!parent) continue;
        const style = getComputedStyle(parent);
        context.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
        for (const word of (node.textContent ?? "").split(/\s+|(?<=-)/)) longest = Math.max(longest, context.measureText(word).width);
      }
      const style = getComputedStyle(cell);
      const inner = cell.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      const text = (cell as HTMLElement).innerText.replace(/\s+/g, " ").trim();
      return inner + 1 < longest ? [`${text.slice(0, 40)} (${Math.round(inner)} px for a ${Math.round(longest)} px word)`] : [];
    });
  });
}

export interface ChartLabel {
  text: string;
  left: number;
  right: number;
  top: number;
  bottom: number;
  /** The size the text is drawn at on screen: its font size times the scale its SVG is drawn at. */
  fontPx: number;
}

export interface ChartLabels {
  /** The body's small text size (`.small`), in CSS pixels. */
  smallPx: number;
  viewportWidth: number;
  /** Per chart: its bars, and its visible labels (axis values and months) in document order. */
  charts: Array<{ bars: number; labels: ChartLabel[] }>;
}

/** Every chart's labels as drawn: their boxes on screen and the size their text is rendered at. */
export function readChartLabels(page: Page): Promise<ChartLabels> {
  return page.evaluate(() => {
    const probe = document.createElement("span");
    probe.className = "small";
    probe.textContent = "x";
    (document.querySelector("main") ?? document.body).append(probe);
    const smallPx = parseFloat(getComputedStyle(probe).fontSize);
    probe.remove();
    const charts = Array.from(document.querySelectorAll("figure.chart")).map((chart) => ({
      bars: chart.querySelectorAll(".bar").length,
      labels: Array.from(chart.querySelectorAll<SVGTextElement | HTMLElement>("text, .chart-label"))
        .filter((el) => {
          const box = el.getBoundingClientRect();
          return getComputedStyle(el).display !== "none" && getComputedStyle(el).visibility !== "hidden" && box.width > 0 && box.height > 0;
        })
        .map((el) => {
          const box = el.getBoundingClientRect();
          const scale = el instanceof SVGGraphicsElement ? Math.abs(el.getScreenCTM()?.a ?? 1) : 1;
          return { text: el.textContent ?? "", left: box.left, right: box.right, top: box.top, bottom: box.bottom, fontPx: parseFloat(getComputedStyle(el).fontSize) * scale };
        }),
    }));
    return { smallPx, viewportWidth: window.innerWidth, charts };
  });
}
