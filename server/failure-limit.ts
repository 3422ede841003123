import type http from "node:http";
import { FailureBudget, type FailureBudgetSettings } from "@/lib/failure-budget";
import { renderWaitPage } from "@/lib/render/wait-page-html";
import { newNonce, securityHeaders } from "@/lib/security-headers";
import { builtStylesheets } from "@/server/http/built-stylesheets";
import type { ProxyTrust } from "@/server/http/client-address";
import { routedPathname } from "@/server/http/routed-path";
import { SIGN_IN_FAILED_LOCATION } from "@/server/operator-session";
import { clientKey } from "@/server/rate-limit";

export interface FailureLimitSettings extends FailureBudgetSettings {
  trust: ProxyTrust;
}

export interface FailureLimit {
  /** Seconds the request's client must wait before an attempt is heard; 0 when it may try. */
  waitSeconds(req: http.IncomingMessage): number;
  /** Counts a failed attempt against the request's client and logs it (the route, never what was guessed). */
  failed(req: http.IncomingMessage, what: string, route: string): void;
  /**
   * For POST /operator/session (Next.js answers it): a waiting client gets a 429 page here, before
   * the token is looked at; otherwise the answer is watched, and a failed sign-in counts. True when it answered.
   */
  guardSignIn(req: http.IncomingMessage, res: http.ServerResponse): boolean;
}

/** Failed sign-ins and pushes to webhook addresses that do not exist, per client, in one budget. */
export function createFailureLimit(settings: FailureLimitSettings, log: (line: string) => void, now: () => number = Date.now): FailureLimit {
  const budget = new FailureBudget(settings);
  const waitSeconds = (req: http.IncomingMessage) => budget.waitSeconds(clientKey(req, settings.trust), now());
  const failed = (req: http.IncomingMessage, what: string, route: string) => {
    const client = clientKey(req, settings.trust);
    const left = budget.fail(client, now());
    const next = left > 0 ? `${left} more before it waits` : `it waits ${budget.waitSeconds(client, now())} s`;
    log(`${what} from ${client} (${req.method ?? "?"} ${route}); ${next}`);
  };
  return {
    waitSeconds,
    failed,
    guardSignIn(req, res) {
      if (req.method !== "POST" || routedPathname(req.url ?? "/") !== "/operator/session") return false;
      const wait = waitSeconds(req);
      if (wait > 0) {
        const nonce = newNonce();
        res.writeHead(429, { ...securityHeaders(nonce), "content-type": "text/html; charset=utf-8", "retry-after": String(wait), "cache-control": "no-store" });
        res.end(renderWaitPage("sign-in", wait, "/operator", nonce, builtStylesheets()));
        // The form's body is not read: drop it so the connection stays usable.
        req.resume();
        return true;
      }
      // Set before Next.js answers, so headers it passes to writeHead are readable here too.
      res.setHeader("cache-control", "no-store");
      // Counted as the answer is sent, before the client can read it and try again.
      const end = res.end.bind(res) as (...args: unknown[]) => http.ServerResponse;
      res.end = ((...args: unknown[]) => {
        if (res.statusCode === 303 && res.getHeader("location") === SIGN_IN_FAILED_LOCATION) failed(req, "failed sign-in", "/operator/session");
        return end(...args);
      }) as typeof res.end;
      return false;
    },
  };
}
