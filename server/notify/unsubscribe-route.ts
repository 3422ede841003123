/**
 * /unsubscribe?s=<id>&t=<token>, the link in every e-mail's List-Unsubscribe header: GET asks,
 * POST (the page's button, or a mail client's RFC 8058 one-click POST) disables the subscription.
 * A wrong token is refused the same way as an unknown id: the page tells nothing of what exists.
 */
import type { RedlineDb } from "@/db/client";
import { disableSubscription, getSubscription } from "@/db/notifications/subscriptions";
import { isUnsubscribeToken } from "@/lib/notify/unsubscribe-token";
import { renderUnsubscribePage, type UnsubscribeView } from "@/lib/render/unsubscribe-html";
import { builtStylesheets } from "@/server/http/built-stylesheets";

function page(request: Request, status: number, view: UnsubscribeView): Response {
  const body = renderUnsubscribePage(view, request.headers.get("x-nonce") ?? "", builtStylesheets());
  return new Response(body, { status, headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store", "referrer-policy": "no-referrer" } });
}

export function unsubscribeRoute(database: () => RedlineDb) {
  const find = async (request: Request) => {
    const url = new URL(request.url);
    const id = url.searchParams.get("s") ?? "";
    const token = url.searchParams.get("t") ?? "";
    const subscription = id ? await getSubscription(database(), id) : undefined;
    return subscription && isUnsubscribeToken(subscription.id, subscription.secret, token) ? { subscription, token } : null;
  };
  return {
    async GET(request: Request): Promise<Response> {
      const found = await find(request);
      if (!found) return page(request, 403, { kind: "refused" });
      const what = found.subscription.target.replace(/^mailto:/, "");
      if (found.subscription.status === "disabled") return page(request, 200, { kind: "done", what });
      return page(request, 200, { kind: "confirm", id: found.subscription.id, token: found.token, what });
    },
    async POST(request: Request): Promise<Response> {
      const found = await find(request);
      if (!found) return page(request, 403, { kind: "refused" });
      await disableSubscription(database(), found.subscription.id, "unsubscribed through the link in a message");
      return page(request, 200, { kind: "done", what: found.subscription.target.replace(/^mailto:/, "") });
    },
  };
}
