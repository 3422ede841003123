function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The 400 page for bad query parameters. The proxy answers with it before any route renders
 * (a rewrite cannot carry the status), so it stands alone: no script, styles in the page.
 */
export function renderBadRequestPage(reason: string, path: string, nonce: string): string {
  const safePath = path.startsWith("/") ? path : "/";
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Bad request · Redline</title>
<style nonce="${escapeHtml(nonce)}">
:root { color-scheme: light dark; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; line-height: 1.5; }
body { max-width: 48rem; margin: 2rem auto; padding: 0 1rem; }
a { color: #0b57a4; } @media (prefers-color-scheme: dark) { a { color: #8cc4ff; } }
</style>
</head>
<body>
<header><a href="/"><strong>Redline</strong></a></header>
<main>
<h1>Bad request</h1>
<p>The address has a query parameter this page does not accept: <strong>${escapeHtml(reason)}</strong>.</p>
<p><a href="${escapeHtml(safePath)}">Open ${escapeHtml(safePath)} without the parameters</a>, or go to the <a href="/">latest changes</a>.</p>
</main>
</body>
</html>
`;
}
