import { CHANGE_KIND_INFO, CHANGE_KIND_NAMES } from "@/lib/change-kinds";
import { escapeHtml, renderFramedPage } from "@/lib/render/site-frame";

/** A bad `kind` gets the kinds there are, each a link to the page with it. */
function kindChoices(path: string): string {
  const items = CHANGE_KIND_NAMES.map(
    (k) => `<li><a href="${escapeHtml(`${path}?kind=${k}`)}">${escapeHtml(CHANGE_KIND_INFO[k].label)}</a> <span class="muted">(<code>${k}</code>)</span></li>`,
  ).join("\n");
  return `<h2>The kinds of change</h2>\n<ul class="kind-choices">\n${items}\n</ul>`;
}

/**
 * The 400 page for bad query parameters. The proxy answers with it before any route renders
 * (a rewrite cannot carry the status), so it is the site's layout as a string (site-frame.ts),
 * styled by the site's built stylesheets.
 */
export function renderBadRequestPage(reason: string, path: string, nonce: string, stylesheets: readonly string[] = []): string {
  const safePath = path.startsWith("/") && !path.startsWith("//") ? path : "/";
  const main = `<h1>Bad request</h1>
<p>This page cannot show what the address asks for: <strong>${escapeHtml(reason)}</strong>.</p>
<p>The address may have been mistyped or cut short, or come from an older version of Redline.
<a href="${escapeHtml(safePath)}">Open ${escapeHtml(safePath)} without the parameters</a>, or go to the <a href="/">latest changes</a>.</p>
${reason.startsWith("kind:") ? kindChoices(safePath) : ""}`;
  return renderFramedPage({ title: "Bad request", mainHtml: main, nonce, stylesheets });
}
