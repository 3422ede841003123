/** The pages of an unsubscribe link: the question (with a button, so mail scanners that follow links unsubscribe no one), the answer, the refusal. */
import { escapeHtml, renderFramedPage } from "@/lib/render/site-frame";

export type UnsubscribeView = { kind: "confirm"; id: string; token: string; what: string } | { kind: "done"; what: string } | { kind: "refused" };

export function renderUnsubscribePage(view: UnsubscribeView, nonce: string, stylesheets: readonly string[]): string {
  let main: string;
  if (view.kind === "confirm") {
    main = `<h1>Unsubscribe</h1>
<p>Stop the messages Redline sends to <strong>${escapeHtml(view.what)}</strong>?</p>
<form method="post" action="/unsubscribe?s=${encodeURIComponent(view.id)}&amp;t=${encodeURIComponent(view.token)}"><button type="submit">Unsubscribe</button></form>`;
  } else if (view.kind === "done") {
    main = `<h1>Unsubscribed</h1>\n<p>Redline sends nothing more to <strong>${escapeHtml(view.what)}</strong>. Whoever runs this Redline can subscribe it again.</p>`;
  } else {
    main = `<h1>This link does not work</h1>\n<p>The unsubscribe link is incomplete or was changed. Open it again from the message, whole; or ask whoever runs this Redline to remove the subscription.</p>`;
  }
  return renderFramedPage({ title: view.kind === "refused" ? "Link not valid" : "Unsubscribe", mainHtml: main, nonce, stylesheets });
}
