/** Text as HTML, every character that could end text or an attribute as a numeric reference. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The site's layout (components/site-chrome.tsx) as an HTML string, for the pages answered before
 * any route renders: the proxy's 400 page. The e2e suite checks that its header and footer match.
 */
export const SITE_NAV = [
  { href: "/", label: "Changes" },
  { href: "/vendors", label: "Vendors" },
  { href: "/search", label: "Search" },
] as const;

/** The id of the banner saying every poll fails: the page cache reads it to tell a page rendered with it from one without. */
export const POLLING_NOTICE_ID = "polling-notice";

export const SITE_DESCRIPTION = "Every version of every vendor status-page incident, and exactly what changed.";

export const SITE_FOOTER =
  "Redline archives public status pages and keeps every version. Summaries are machine-written from the diff; the diff is the record.";

/** Used only where the built stylesheet cannot be found (a development server): readable, not styled. */
const FALLBACK_STYLE = `:root { color-scheme: light dark; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; line-height: 1.5; }
body { max-width: 76rem; margin: 0 auto; padding: 0 1rem; }
a { color: #0b57a4; } @media (prefers-color-scheme: dark) { a { color: #8cc4ff; } }
.site-header nav ul { display: flex; gap: 1rem; list-style: none; padding: 0; }
.skip-link { position: absolute; left: -999px; } .skip-link:focus { left: 0.5rem; }`;

export interface FramedPage {
  title: string;
  /** Trusted HTML: the caller escapes everything in it. */
  mainHtml: string;
  nonce: string;
  /** The site's built stylesheets (/_next/static/…css); none, and a small inline style stands in. */
  stylesheets: readonly string[];
}

export function renderFramedPage(page: FramedPage): string {
  const styles = page.stylesheets.length
    ? page.stylesheets.map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`).join("\n")
    : `<style nonce="${escapeHtml(page.nonce)}">\n${FALLBACK_STYLE}\n</style>`;
  const nav = SITE_NAV.map((item) => `<li><a href="${item.href}">${item.label}</a></li>`).join("");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(page.title)} · Redline</title>
${styles}
</head>
<body>
<a class="skip-link" href="#main">Skip to content</a>
<header class="site-header"><a href="/" class="brand">Redline</a><nav aria-label="Main"><ul>${nav}</ul></nav></header>
<main id="main" tabindex="-1">
${page.mainHtml}
</main>
<footer class="site-footer">${escapeHtml(SITE_FOOTER)}</footer>
</body>
</html>
`;
}
