import { z } from "zod";
import {
  addVendorBodySchema,
  changeItemSchema,
  changeListQuerySchema,
  deleteVendorQuerySchema,
  diffQuerySchema,
  diffSchema,
  emptyQuerySchema,
  hookTelemetrySchema,
  incidentDetailSchema,
  incidentListQuerySchema,
  incidentSummarySchema,
  pageSchema,
  pollRequestedSchema,
  quietDegradationListQuerySchema,
  quietDegradationSchema,
  searchHitSchema,
  searchQuerySchema,
  statusQuerySchema,
  statusViewSchema,
  vendorListQuerySchema,
  vendorQuietDegradationListQuerySchema,
  vendorRemovedSchema,
  vendorSchema,
  versionDetailSchema,
} from "@/lib/api/schemas";
import {
  deliveryAttemptSchema, listOf, subscriptionBodySchema, subscriptionCreatedSchema, subscriptionRemovedSchema, subscriptionSchema, testRequestedSchema,
  watchlistBodySchema, watchlistRemovedSchema, watchlistSchema,
} from "@/lib/api/notify-schemas";
import { changeSchema } from "@/lib/change";
import { incidentSchema, presenceSchema } from "@/lib/incident";

/**
 * Every route of /api/v1, with the schemas its handler parses and answers with. The OpenAPI
 * document is made from this list, and the conformance test calls every route in it.
 */
export interface ApiRoute {
  operationId: string;
  method: "get" | "post" | "delete";
  /** OpenAPI path template under /api/v1. */
  path: string;
  summary: string;
  tag: "vendors" | "incidents" | "changes" | "quiet-degradations" | "search" | "exports" | "operator" | "meta";
  pathParams?: readonly (keyof typeof PATH_PARAMS)[];
  query: z.ZodObject;
  body?: z.ZodType;
  status: 200 | 201 | 202;
  /** JSON answers have a schema; Markdown exports are text. */
  response: z.ZodType | "text/markdown";
  /** What its 404 means, where that is more than a missing vendor, incident or version. */
  notFound?: string;
  /** Needs the operator token; listed only for a request that carries it. */
  operator?: boolean;
}

export const PATH_PARAMS = {
  slug: { description: "The vendor's slug.", schema: z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/) },
  key: { description: "The incident's id as in URLs: the vendor's id when URL-safe, else `~` and its UTF-8 bytes in hex.", schema: z.string().min(1) },
  seq: { description: "The version number, from 1.", schema: z.string().regex(/^[1-9]\d{0,8}$/) },
  name: { description: "The watchlist's name.", schema: z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/) },
  id: { description: "The subscription's id (`sub_…`).", schema: z.string().regex(/^sub_[A-Za-z0-9_-]{1,64}$/) },
} as const;

const exportVersionSchema = z.object({
  seq: z.number().int(),
  observedAt: z.string(),
  hash: z.string(),
  kinds: z.array(z.string()),
  changes: z.array(changeSchema),
  summary: z.string(),
});
const exportIncidentSchema = incidentSchema.extend({ presence: presenceSchema, firstSeenAt: z.string(), lastSeenAt: z.string() });
export const exportDocumentSchema = z.object({
  vendor: z.object({ slug: z.string(), name: z.string() }),
  incidents: z.array(exportIncidentSchema.extend({ versions: z.array(exportVersionSchema) })),
});
export const versionExportDocumentSchema = z.object({
  vendor: z.object({ slug: z.string(), name: z.string() }),
  incident: exportIncidentSchema,
  version: exportVersionSchema,
});

const INCIDENT = "/vendors/{slug}/incidents/{key}";
const VERSION = `${INCIDENT}/versions/{seq}`;

export const API_ROUTES: readonly ApiRoute[] = [
  { operationId: "listVendors", method: "get", path: "/vendors", summary: "Every vendor, by slug, with its current state and polling health.", tag: "vendors", query: vendorListQuerySchema, status: 200, response: pageSchema(vendorSchema) },
  { operationId: "getVendor", method: "get", path: "/vendors/{slug}", summary: "One vendor.", tag: "vendors", pathParams: ["slug"], query: emptyQuerySchema, status: 200, response: vendorSchema },
  {
    operationId: "getVendorStatus", method: "get", path: "/vendors/{slug}/status", summary: "The vendor's status page as it was at a moment, or now: the component grid as observed then and the incidents open then.",
    tag: "vendors", pathParams: ["slug"], query: statusQuerySchema, status: 200, response: statusViewSchema,
    notFound: "No such vendor, or a moment before the vendor's first capture: `detail` says from when it is archived.",
  },
  { operationId: "listIncidents", method: "get", path: "/incidents", summary: "Incidents, newest first (by start, or by when first seen), filtered.", tag: "incidents", query: incidentListQuerySchema, status: 200, response: pageSchema(incidentSummarySchema) },
  { operationId: "getIncident", method: "get", path: INCIDENT, summary: "One incident: its current state and its versions.", tag: "incidents", pathParams: ["slug", "key"], query: emptyQuerySchema, status: 200, response: incidentDetailSchema },
  { operationId: "getVersion", method: "get", path: VERSION, summary: "One version of an incident: what changed, and the incident as it then was.", tag: "incidents", pathParams: ["slug", "key", "seq"], query: emptyQuerySchema, status: 200, response: versionDetailSchema },
  { operationId: "diffVersions", method: "get", path: `${INCIDENT}/diff`, summary: "What changed between any two versions of an incident.", tag: "incidents", pathParams: ["slug", "key"], query: diffQuerySchema, status: 200, response: diffSchema },
  { operationId: "listChanges", method: "get", path: "/changes", summary: "Changes (versions) newest first, filtered.", tag: "changes", query: changeListQuerySchema, status: 200, response: pageSchema(changeItemSchema) },
  { operationId: "listQuietDegradations", method: "get", path: "/quiet-degradations", summary: "Quiet degradations newest first (by start): stretches in which a vendor's components were degraded or out while it had no incident open.", tag: "quiet-degradations", query: quietDegradationListQuerySchema, status: 200, response: pageSchema(quietDegradationSchema) },
  { operationId: "listVendorQuietDegradations", method: "get", path: "/vendors/{slug}/quiet-degradations", summary: "One vendor's quiet degradations, newest first.", tag: "quiet-degradations", pathParams: ["slug"], query: vendorQuietDegradationListQuerySchema, status: 200, response: pageSchema(quietDegradationSchema) },
  { operationId: "search", method: "get", path: "/search", summary: "Incidents whose title, updates or postmortem match, best first.", tag: "search", query: searchQuerySchema, status: 200, response: pageSchema(searchHitSchema) },
  { operationId: "exportIncidentMarkdown", method: "get", path: `${INCIDENT}/export.md`, summary: "The incident's Markdown export (what `redline export` prints).", tag: "exports", pathParams: ["slug", "key"], query: emptyQuerySchema, status: 200, response: "text/markdown" },
  { operationId: "exportIncidentJson", method: "get", path: `${INCIDENT}/export.json`, summary: "The incident's JSON export.", tag: "exports", pathParams: ["slug", "key"], query: emptyQuerySchema, status: 200, response: exportDocumentSchema },
  { operationId: "exportVersionMarkdown", method: "get", path: `${VERSION}/export.md`, summary: "One version's Markdown export.", tag: "exports", pathParams: ["slug", "key", "seq"], query: emptyQuerySchema, status: 200, response: "text/markdown" },
  { operationId: "exportVersionJson", method: "get", path: `${VERSION}/export.json`, summary: "One version's JSON export.", tag: "exports", pathParams: ["slug", "key", "seq"], query: emptyQuerySchema, status: 200, response: versionExportDocumentSchema },
  { operationId: "getOpenApi", method: "get", path: "/openapi.json", summary: "This document.", tag: "meta", query: emptyQuerySchema, status: 200, response: z.looseObject({ openapi: z.literal("3.1.0") }) },
  { operationId: "addVendor", method: "post", path: "/vendors", summary: "Add a vendor to poll.", tag: "operator", query: emptyQuerySchema, body: addVendorBodySchema, status: 201, response: vendorSchema, operator: true },
  { operationId: "removeVendor", method: "delete", path: "/vendors/{slug}", summary: "Stop polling a vendor (and with purge=true delete its archive).", tag: "operator", pathParams: ["slug"], query: deleteVendorQuerySchema, status: 200, response: vendorRemovedSchema, operator: true },
  { operationId: "getHookTelemetry", method: "get", path: "/hooks/telemetry", summary: "Webhook budgets as configured, and per scope how often and when it last throttled and alerted.", tag: "operator", query: emptyQuerySchema, status: 200, response: hookTelemetrySchema, operator: true },
  { operationId: "pollVendor", method: "post", path: "/vendors/{slug}/poll", summary: "Poll a vendor now, ahead of its schedule.", tag: "operator", pathParams: ["slug"], query: emptyQuerySchema, status: 202, response: pollRequestedSchema, operator: true },
  { operationId: "listWatchlists", method: "get", path: "/watchlists", summary: "Every watchlist and its members.", tag: "operator", query: emptyQuerySchema, status: 200, response: listOf(watchlistSchema), operator: true },
  { operationId: "saveWatchlist", method: "post", path: "/watchlists", summary: "Create a watchlist, or replace the members of the one of that name.", tag: "operator", query: emptyQuerySchema, body: watchlistBodySchema, status: 201, response: watchlistSchema, operator: true },
  { operationId: "getWatchlist", method: "get", path: "/watchlists/{name}", summary: "One watchlist.", tag: "operator", pathParams: ["name"], query: emptyQuerySchema, status: 200, response: watchlistSchema, operator: true },
  { operationId: "removeWatchlist", method: "delete", path: "/watchlists/{name}", summary: "Remove a watchlist (409 while a subscription filters on it).", tag: "operator", pathParams: ["name"], query: emptyQuerySchema, status: 200, response: watchlistRemovedSchema, operator: true },
  { operationId: "listSubscriptions", method: "get", path: "/subscriptions", summary: "Every subscription: target (chat webhook URLs masked), filter, state, pending changes. Never the secret.", tag: "operator", query: emptyQuerySchema, status: 200, response: listOf(subscriptionSchema), operator: true },
  { operationId: "addSubscription", method: "post", path: "/subscriptions", summary: "Push matching changes to a target. No filter: every change; filters are ANDed across kinds of filter and ORed within one. The answer carries the signing secret, this once.", tag: "operator", query: emptyQuerySchema, body: subscriptionBodySchema, status: 201, response: subscriptionCreatedSchema, operator: true },
  { operationId: "getSubscription", method: "get", path: "/subscriptions/{id}", summary: "One subscription (without its secret).", tag: "operator", pathParams: ["id"], query: emptyQuerySchema, status: 200, response: subscriptionSchema, operator: true },
  { operationId: "removeSubscription", method: "delete", path: "/subscriptions/{id}", summary: "Remove a subscription with its pending messages and delivery log.", tag: "operator", pathParams: ["id"], query: emptyQuerySchema, status: 200, response: subscriptionRemovedSchema, operator: true },
  { operationId: "listDeliveries", method: "get", path: "/subscriptions/{id}/deliveries", summary: "The delivery log, newest first (at most 100 attempts): time, message, status, duration, outcome, error.", tag: "operator", pathParams: ["id"], query: emptyQuerySchema, status: 200, response: listOf(deliveryAttemptSchema), operator: true },
  { operationId: "testSubscription", method: "post", path: "/subscriptions/{id}/test", summary: "Queue a sample message, due now: the running notifier (`npm start`, or `redline notify`) sends it; its attempt appears in the deliveries under the returned webhookId.", tag: "operator", pathParams: ["id"], query: emptyQuerySchema, status: 202, response: testRequestedSchema, operator: true },
];

export function findApiRoute(operationId: string): ApiRoute {
  const route = API_ROUTES.find((r) => r.operationId === operationId);
  if (!route) throw new Error(`api: no route ${operationId}`);
  return route;
}
