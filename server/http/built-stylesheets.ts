import fs from "node:fs";
import path from "node:path";

let cached: { dir: string; hrefs: readonly string[] } | null = null;

/**
 * The site's stylesheets as the build emitted them (/_next/static/…css), read from the
 * prerendered not-found page, for pages written outside React (the proxy's 400 page). None
 * where there is no build output to read (a development server).
 */
export function builtStylesheets(distDir = process.env.REDLINE_NEXT_DIST_DIR ?? ".next"): readonly string[] {
  // The build's output, found at run time: nothing for Next's build to trace (without the comment,
  // Turbopack warns and traces the whole project into the proxy and the routes that import this).
  const dir = path.resolve(/* turbopackIgnore: true */ distDir);
  if (cached?.dir === dir) return cached.hrefs;
  let html = "";
  try {
    html = fs.readFileSync(path.join(dir, "server", "app", "_not-found.html"), "utf8");
  } catch {
    // No prerendered page: the 400 page falls back to its inline style; nothing to record.
  }
  const hrefs = [...new Set([...html.matchAll(/<link rel="stylesheet" href="(\/_next\/static\/[\w./-]+\.css)"/g)].map((m) => m[1] ?? ""))].filter(Boolean);
  cached = { dir, hrefs };
  return hrefs;
}
