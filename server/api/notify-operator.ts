import type { z } from "zod";
import type { RedlineDb } from "@/db/client";
import { enqueueTestMessage, listDeliveries } from "@/db/notifications/delivery";
import {
  addSubscription, countPendingNotifications, getSubscription, listSubscriptions, removeSubscription, type Subscription, SubscriptionError,
} from "@/db/notifications/subscriptions";
import { getWatchlist, listWatchlists, removeWatchlist, saveWatchlist, type Watchlist, WatchlistError } from "@/db/notifications/watchlists";
import type { deliveryAttemptSchema, subscriptionSchema, watchlistSchema } from "@/lib/api/notify-schemas";
import { watchlistBodySchema } from "@/lib/api/notify-schemas";
import { emptyQuerySchema } from "@/lib/api/schemas";
import { readEnv } from "@/lib/env";
import { describeFilter } from "@/lib/notify/subscription-filter";
import { maskTarget, SubscriptionInputError } from "@/lib/notify/subscription-input";
import { describeParamError } from "@/lib/page-params";
import { validateSubscription } from "@/scrapers/live/validate-subscription";
import { readJsonBody } from "@/server/api/operator";
import { answerWrite, apiHandler, isOperator, notFound, parseQuery, unauthorized } from "@/server/api/respond";
import { problem } from "@/server/http/problem";
import { publicOrigin } from "@/server/http/public-origin";

function toWatchlist(origin: string, w: Watchlist): z.infer<typeof watchlistSchema> {
  return { name: w.name, createdAt: w.createdAt, members: w.members, page: `${origin}/watch/${w.name}` };
}

function toSubscription(s: Subscription, pending: number): z.infer<typeof subscriptionSchema> {
  return {
    id: s.id, format: s.format, target: maskTarget(s.target, s.format), filter: s.filter, watchlist: s.watchlist, description: describeFilter(s.filter, s.watchlist),
    digest: s.digest, status: s.status, disabledAt: s.disabledAt, disabledReason: s.disabledReason, failingSince: s.failingSince,
    lastDeliveredAt: s.lastDeliveredAt, createdAt: s.createdAt, pending,
  };
}

/** The operator token and an empty query string, checked first: a refused request reads and writes nothing. */
function refuse(request: Request): Response | null {
  if (!isOperator(request)) return unauthorized();
  const query = parseQuery(emptyQuerySchema, request);
  return "error" in query ? query.error : null;
}

/** The operator API's watchlists and subscriptions (lib/api/routes.ts), over `database`. */
export function notifyOperatorHandlers(database: () => RedlineDb) {
  return {
    listWatchlists: apiHandler<Record<string, never>>(async (request) => {
      const refused = refuse(request);
      if (refused) return refused;
      const origin = publicOrigin(request);
      return answerWrite(200, { data: (await listWatchlists(database())).map((w) => toWatchlist(origin, w)) });
    }),

    saveWatchlist: apiHandler<Record<string, never>>(async (request) => {
      const refused = refuse(request);
      if (refused) return refused;
      const body = await readJsonBody(request);
      if ("error" in body) return body.error;
      const parsed = watchlistBodySchema.safeParse(body.value);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const field = issue?.code === "unrecognized_keys" ? issue.keys[0] : issue?.path[0] === undefined ? undefined : String(issue.path[0]);
        return problem(400, describeParamError(parsed.error), { parameter: field });
      }
      try {
        const saved = await saveWatchlist(database(), parsed.data);
        const origin = publicOrigin(request);
        return answerWrite(201, toWatchlist(origin, saved), { location: `${origin}/api/v1/watchlists/${saved.name}` });
      } catch (error) {
        if (error instanceof WatchlistError) return problem(400, error.message);
        throw error;
      }
    }),

    getWatchlist: apiHandler<{ name: string }>(async (request, { name }) => {
      const refused = refuse(request);
      if (refused) return refused;
      const watchlist = await getWatchlist(database(), name);
      return watchlist ? answerWrite(200, toWatchlist(publicOrigin(request), watchlist)) : notFound(`no watchlist ${JSON.stringify(name)}`);
    }),

    removeWatchlist: apiHandler<{ name: string }>(async (request, { name }) => {
      const refused = refuse(request);
      if (refused) return refused;
      try {
        if (!(await removeWatchlist(database(), name))) return notFound(`no watchlist ${JSON.stringify(name)}`);
      } catch (error) {
        if (error instanceof WatchlistError) return problem(409, error.message);
        throw error;
      }
      return answerWrite(200, { name, removed: true });
    }),

    listSubscriptions: apiHandler<Record<string, never>>(async (request) => {
      const refused = refuse(request);
      if (refused) return refused;
      const db = database();
      const pending = await countPendingNotifications(db);
      return answerWrite(200, { data: (await listSubscriptions(db)).map((s) => toSubscription(s, pending.get(s.id) ?? 0)) });
    }),

    addSubscription: apiHandler<Record<string, never>>(async (request) => {
      const refused = refuse(request);
      if (refused) return refused;
      const body = await readJsonBody(request);
      if ("error" in body) return body.error;
      try {
        const checked = validateSubscription(body.value, readEnv().REDLINE_ALLOW_PRIVATE_URLS);
        const saved = await addSubscription(database(), checked);
        return answerWrite(201, { ...toSubscription(saved, 0), secret: saved.secret }, { location: `${publicOrigin(request)}/api/v1/subscriptions/${saved.id}` });
      } catch (error) {
        if (error instanceof SubscriptionInputError) return problem(400, error.message, { parameter: error.field });
        if (error instanceof SubscriptionError) return problem(400, error.message);
        throw error;
      }
    }),

    getSubscription: apiHandler<{ id: string }>(async (request, { id }) => {
      const refused = refuse(request);
      if (refused) return refused;
      const db = database();
      const subscription = await getSubscription(db, id);
      return subscription ? answerWrite(200, toSubscription(subscription, (await countPendingNotifications(db)).get(id) ?? 0)) : notFound(`no subscription ${JSON.stringify(id)}`);
    }),

    removeSubscription: apiHandler<{ id: string }>(async (request, { id }) => {
      const refused = refuse(request);
      if (refused) return refused;
      return (await removeSubscription(database(), id)) ? answerWrite(200, { id, removed: true }) : notFound(`no subscription ${JSON.stringify(id)}`);
    }),

    listDeliveries: apiHandler<{ id: string }>(async (request, { id }) => {
      const refused = refuse(request);
      if (refused) return refused;
      const db = database();
      if (!(await getSubscription(db, id))) return notFound(`no subscription ${JSON.stringify(id)}`);
      const data: Array<z.infer<typeof deliveryAttemptSchema>> = (await listDeliveries(db, id)).map((d) => ({ ...d, outcome: d.outcome as z.infer<typeof deliveryAttemptSchema>["outcome"] }));
      return answerWrite(200, { data });
    }),

    testSubscription: apiHandler<{ id: string }>(async (request, { id }) => {
      const refused = refuse(request);
      if (refused) return refused;
      const db = database();
      const subscription = await getSubscription(db, id);
      if (!subscription) return notFound(`no subscription ${JSON.stringify(id)}`);
      if (subscription.status === "disabled") return problem(409, `subscription ${id} is disabled (${subscription.disabledReason ?? "no reason recorded"}): add it again to deliver to it`);
      const message = await enqueueTestMessage(db, id);
      return answerWrite(202, { id, webhookId: message.webhookId, detail: "queued, due now: the running notifier sends it; see its deliveries" });
    }),
  };
}
