import { escapeHtml, renderFramedPage } from "@/lib/render/site-frame";

function inSeconds(seconds: number): string {
  return seconds === 1 ? "1 second" : `${seconds} seconds`;
}

/**
 * The 429 page of a form whose client failed too often (the operator sign-in): when it may try
 * again, and the way back to the form. A string in the site's layout, answered before Next.js.
 */
export function renderWaitPage(what: string, retryAfterSeconds: number, back: string, nonce: string, stylesheets: readonly string[] = []): string {
  const seconds = inSeconds(retryAfterSeconds);
  const main = `<h1>Too many failed attempts</h1>
<p role="alert">This address made too many failed ${escapeHtml(what)}s in a short time. Wait ${seconds}, then <a href="${escapeHtml(back)}">try again</a>.</p>`;
  return renderFramedPage({ title: "Too many failed attempts", mainHtml: main, nonce, stylesheets });
}

/**
 * The 429 page of a page whose client spent its request budget (searches, filtered lists,
 * comparisons; the API, feeds and exports share it): what it asked for too often (`what`, in the
 * plural), when it may ask again, and a link to ask again with.
 */
export function renderTooManyRequestsPage(what: string, retryAfterSeconds: number, again: string, nonce: string, stylesheets: readonly string[] = []): string {
  const seconds = inSeconds(retryAfterSeconds);
  const main = `<h1>Too many requests</h1>
<p role="alert">This address asked for too many ${escapeHtml(what)} in a short time. Wait ${seconds}, then <a href="${escapeHtml(again)}">try again</a>.</p>
<p>Searches, comparisons, filtered lists, exports, feeds and the API share one budget per address. Pages without filters stay open meanwhile.</p>`;
  return renderFramedPage({ title: "Too many requests", mainHtml: main, nonce, stylesheets });
}

/**
 * The 503 page of a search refused because every search thread is taken and enough wait for
 * them: when to ask again, and a link to ask with. A string, so the refusal costs next to nothing.
 */
export function renderSearchesBusyPage(retryAfterSeconds: number, again: string, nonce: string, stylesheets: readonly string[] = []): string {
  const seconds = inSeconds(retryAfterSeconds);
  const main = `<h1>Search</h1>
<p role="alert">No answer: too many searches are running or waiting to run on this server. Wait ${seconds}, then <a href="${escapeHtml(again)}">search again</a>.</p>
<p>Every other page stays open meanwhile.</p>`;
  return renderFramedPage({ title: "Search", mainHtml: main, nonce, stylesheets });
}
