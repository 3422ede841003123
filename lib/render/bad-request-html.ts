function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The site frame's styles for this page, with the design tokens of app/globals.css it uses
 * (tests/lib/render/bad-request-html.test.ts holds them equal): the proxy answers before Next
 * renders, so the page cannot link the built stylesheet.
 */
export const BAD_REQUEST_CSS = `:root { color-scheme: light dark; --bg: #ffffff; --fg: #1f2328; --muted: #59636e; --line: #d1d9e0; --link: #0969da; --accent: #a40e26; --focus: #0969da;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; line-height: 1.5; }
@media (prefers-color-scheme: dark) { :root { --bg: #0d1117; --fg: #f0f6fc; --muted: #9198a1; --line: #3d444d; --link: #4493f8; --accent: #ff7b72; --focus: #4493f8; } }
*, *::before, *::after { box-sizing: border-box; }
body { margin: 0 auto; max-width: 76rem; padding: 0 1.5rem; background: var(--bg); color: var(--fg); overflow-wrap: break-word; }
a { color: var(--link); text-underline-offset: 0.15em; }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
main:focus-visible { outline: none; }
.skip-link { position: absolute; left: -999px; top: 0; background: var(--bg); padding: 0.5rem 0.75rem; }
.skip-link:focus { left: 0.5rem; top: 0.5rem; }
.site-header { display: flex; flex-wrap: wrap; gap: 0.5rem 1.5rem; align-items: center; padding: 0.75rem 0; border-bottom: 1px solid var(--line); }
.site-header nav ul { display: flex; flex-wrap: wrap; gap: 0.25rem 1rem; list-style: none; margin: 0; padding: 0; }
.site-header nav a { display: inline-block; padding: 0.25rem 0; font-weight: 500; color: var(--fg); text-decoration: none; }
.brand { font-weight: 700; font-size: 1.375rem; color: var(--accent); text-decoration: none; letter-spacing: -0.02em; }
h1 { font-size: 1.75rem; line-height: 1.25; font-weight: 600; margin: 1.5rem 0 0.75rem; }
main p { max-width: 48rem; }
.site-footer { border-top: 1px solid var(--line); padding: 1rem 0 1.5rem; margin-top: 3rem; font-size: 0.875rem; color: var(--muted); }
@media (max-width: 40rem) { body { padding: 0 0.75rem; } h1 { font-size: 1.375rem; } }`;

/**
 * The 400 page for bad query parameters, in the site's frame (header, navigation, footer). The
 * proxy answers with it before any route renders (a rewrite cannot carry the status), so it
 * stands alone: no script, styles in the page.
 */
export function renderBadRequestPage(reason: string, path: string, nonce: string): string {
  // "//host/…" would be a link to another site.
  const safePath = /^\/(?!\/)/.test(path) ? path : "/";
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Address not understood · Redline</title>
<style nonce="${escapeHtml(nonce)}">
${BAD_REQUEST_CSS}
</style>
</head>
<body>
<a class="skip-link" href="#main">Skip to content</a>
<header class="site-header">
<a href="/" class="brand">Redline</a>
<nav aria-label="Main"><ul><li><a href="/">Changes</a></li><li><a href="/vendors">Vendors</a></li><li><a href="/search">Search</a></li></ul></nav>
</header>
<main id="main" tabindex="-1">
<h1>This address asks for something the page cannot show</h1>
<p>Part of the address after the question mark is not one this page understands: <strong>${escapeHtml(reason)}</strong>.</p>
<p><a href="${escapeHtml(safePath)}">Open ${escapeHtml(safePath)} without it</a>, or go to the <a href="/">latest changes</a>.</p>
</main>
<footer class="site-footer">Redline archives public status pages and keeps every version. Summaries are machine-written from the diff; the diff is the record.</footer>
</body>
</html>
`;
}
