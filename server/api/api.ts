import type { z } from "zod";
import type { RedlineDb } from "@/db/client";
import { listChanges } from "@/db/queries/changes";
import { loadIncidentExport, loadVersionExport } from "@/db/queries/exports";
import { getVersionDetail } from "@/db/queries/incident-page";
import { parseSeq, resolveIncidentRoute } from "@/db/queries/incident-route";
import { decodeCursor } from "@/db/driver/prepared";
import { SNIPPET_CLOSE, SNIPPET_OPEN, toFtsQuery } from "@/db/queries/search";
import { findStatusPage } from "@/db/queries/status-page";
import { getVendor } from "@/db/queries/vendor-profile";
import { findUnknownVendor } from "@/db/queries/vendor-names";
import { listIncidents } from "@/db/queries/incident-list";
import { getVendorOverview, pageVendorOverviews } from "@/db/queries/vendors-overview";
import { getServerDb } from "@/db/driver/server-db";
import { buildOpenApi } from "@/lib/api/openapi";
import {
  changeListQuerySchema,
  type changeItemSchema,
  diffQuerySchema,
  type diffSchema,
  emptyQuerySchema,
  type incidentDetailSchema,
  incidentListQuerySchema,
  type pageSchema,
  type searchHitSchema,
  searchQuerySchema,
  statusQuerySchema,
  type statusViewSchema,
  vendorListQuerySchema,
  type vendorSchema,
} from "@/lib/api/schemas";
import { diffStates } from "@/lib/diff-incidents";
import { renderExportJson, renderVersionExportJson } from "@/lib/export-document";
import { renderExportMarkdown, renderVersionExportMarkdown } from "@/lib/render/export-markdown";
import { readNowRules } from "@/lib/now-rules";
import { publicOrigin } from "@/server/http/public-origin";
import { answer, answerJson, apiHandler, badCursor, nextLink, notFound, parseErrorFor, parseQuery } from "@/server/api/respond";
import { apiLinks } from "@/lib/api/links";
import { incidentRef, presentVersion } from "@/lib/api/present";
import { decodeApiCursor, encodeApiCursor, toIncidentSummary, toVendor } from "@/server/api/present";
import { notifyOperatorHandlers } from "@/server/api/notify-operator";
import { operatorHandlers } from "@/server/api/operator";
import { quietDegradationHandlers } from "@/server/api/quiet-degradations";
import { searchRunnerFor } from "@/server/search/runner";

type Params = { slug: string; key: string; seq: string };
type Page<T extends z.ZodType> = z.infer<ReturnType<typeof pageSchema<T>>>;

/** The read handlers of /api/v1, keyed by operationId (lib/api/routes.ts), over `database`. */
export function createApi(database: () => RedlineDb = getServerDb) {

  const vendorIds = async (db: RedlineDb, slugs: readonly string[] | undefined): Promise<number[] | undefined | null> => {
    if (!slugs) return undefined;
    const ids = (await Promise.all(slugs.map((s) => getVendor(db, s)))).map((v) => v?.id);
    return ids.every((id): id is number => id !== undefined) ? ids : null;
  };

  /** A list's query checked, its vendors found, its cursor and words decoded: or the error answer. */
  const resolveList = async <T extends typeof incidentListQuerySchema | typeof changeListQuerySchema>(schema: T, request: Request) => {
    const parsed = parseQuery(schema, request);
    if ("error" in parsed) return parsed;
    const q = parsed.data as z.infer<typeof incidentListQuerySchema>;
    const db = database();
    const ids = await vendorIds(db, q.vendor);
    if (ids === null) return { error: notFound(`vendor: no vendor ${JSON.stringify(await findUnknownVendor(db, q.vendor ?? []))}`) };
    const before = q.cursor ? decodeCursor(decodeApiCursor(q.cursor) ?? "") : null;
    if (q.cursor && !before) return { error: badCursor() };
    return { q, db, ids, before, fts: q.q === undefined ? undefined : toFtsQuery(q.q) };
  };

  return {
    listVendors: apiHandler<Record<string, never>>(async (request) => {
      const parsed = parseQuery(vendorListQuerySchema, request);
      if ("error" in parsed) return parsed.error;
      const q = parsed.data;
      const after = q.cursor ? decodeApiCursor(q.cursor) : "";
      if (after === null) return badCursor();
      const links = apiLinks(publicOrigin(request));
      const fetched = await pageVendorOverviews(database(), new Date(), readNowRules(), { nameFilter: q.q, after, limit: q.limit + 1 });
      const page = fetched.slice(0, q.limit);
      const last = page.at(-1);
      const body: Page<typeof vendorSchema> = {
        data: page.map((v) => toVendor(links, v)),
        next: nextLink(request, fetched.length > q.limit && last ? encodeApiCursor(last.slug) : null),
        limit: q.limit,
      };
      return answerJson(request, body);
    }),

    getVendor: apiHandler<Pick<Params, "slug">>(async (request, { slug }) => {
      const parsed = parseQuery(emptyQuerySchema, request);
      if ("error" in parsed) return parsed.error;
      const overview = await getVendorOverview(database(), new Date(), readNowRules(), slug);
      if (!overview) return notFound(`no vendor ${JSON.stringify(slug)}`);
      return answerJson(request, toVendor(apiLinks(publicOrigin(request)), overview) satisfies z.infer<typeof vendorSchema>);
    }),

    getVendorStatus: apiHandler<Pick<Params, "slug">>(async (request, { slug }) => {
      const parsed = parseQuery(statusQuerySchema, request);
      if ("error" in parsed) return parsed.error;
      const answer = await findStatusPage(database(), slug, parsed.data.at ?? null, readNowRules(), new Date());
      if (!answer) return notFound(`no vendor ${JSON.stringify(slug)}`);
      if ("refused" in answer) return notFound(answer.refused);
      return answerJson(request, answer.page.view satisfies z.infer<typeof statusViewSchema>);
    }),

    listIncidents: apiHandler<Record<string, never>>(async (request) => {
      const resolved = await resolveList(incidentListQuerySchema, request);
      if ("error" in resolved) return resolved.error;
      const { q, db, ids, before, fts } = resolved;
      const filter = { vendorIds: ids, impacts: q.impact, statuses: q.status, kinds: q.kind, component: q.component, since: q.since, until: q.until, query: fts ?? undefined, before };
      // Words make it a search: run where searches run, under their budget.
      const result = fts === null ? { rows: [], next: null } : fts === undefined ? await listIncidents(db, filter, q.limit) : await searchRunnerFor(db).run("listIncidents", [filter, q.limit]);
      const links = apiLinks(publicOrigin(request));
      return answerJson(request, {
        data: result.rows.map((r) => toIncidentSummary(links, r)),
        next: nextLink(request, result.next === null ? null : encodeApiCursor(result.next)),
        limit: q.limit,
      });
    }),

    getIncident: apiHandler<Pick<Params, "slug" | "key">>(async (request, { slug, key }) => {
      const parsed = parseQuery(emptyQuerySchema, request);
      if ("error" in parsed) return parsed.error;
      const route = await resolveIncidentRoute(database(), slug, decodeURIComponent(key));
      if (!route) return notFound(`no incident ${JSON.stringify(decodeURIComponent(key))} of vendor ${JSON.stringify(slug)}`);
      const links = apiLinks(publicOrigin(request));
      const { incident, vendor } = route;
      const current = incident.current.incident;
      const body: z.infer<typeof incidentDetailSchema> = {
        ...toIncidentSummary(links, {
          vendorSlug: vendor.slug, providerId: incident.providerId, kind: current.kind, title: current.title, status: current.status, impact: current.impact,
          startedAt: current.startedAt, resolvedAt: current.resolvedAt, presence: incident.current.presence, firstSeenAt: incident.firstSeenAt,
          lastChangedAt: incident.versions.at(-1)?.observedAt ?? incident.lastSeenAt, versionCount: incident.versionCount,
        }),
        current,
        versions: incident.versions.map((v) => ({ seq: v.seq, observedAt: v.observedAt, kinds: v.kinds, summary: v.summary, links: links.version(vendor.slug, incident.providerId, v.seq) })),
        links: links.incidentFull(vendor.slug, incident.providerId),
      };
      return answerJson(request, body);
    }),

    getVersion: apiHandler<Params>(async (request, { slug, key, seq }) => {
      const parsed = parseQuery(emptyQuerySchema, request);
      if ("error" in parsed) return parsed.error;
      const db = database();
      const route = await resolveIncidentRoute(db, slug, decodeURIComponent(key));
      const n = parseSeq(seq);
      const version = route && n !== null ? await getVersionDetail(db, route.incident.id, n) : undefined;
      if (!route || !version) return notFound(`no version ${JSON.stringify(seq)} of incident ${JSON.stringify(decodeURIComponent(key))} of vendor ${JSON.stringify(slug)}`);
      const body = presentVersion(apiLinks(publicOrigin(request)), route.vendor.slug, route.incident.providerId, route.incident.current.incident.title, version);
      return answerJson(request, body);
    }),

    diffVersions: apiHandler<Pick<Params, "slug" | "key">>(async (request, { slug, key }) => {
      const parsed = parseQuery(diffQuerySchema, request);
      if ("error" in parsed) return parsed.error;
      const { from, to } = parsed.data;
      const db = database();
      const route = await resolveIncidentRoute(db, slug, decodeURIComponent(key));
      if (!route) return notFound(`no incident ${JSON.stringify(decodeURIComponent(key))} of vendor ${JSON.stringify(slug)}`);
      const a = await getVersionDetail(db, route.incident.id, from);
      const b = await getVersionDetail(db, route.incident.id, to);
      if (!a || !b) return notFound(`incident ${JSON.stringify(route.incident.providerId)} has versions 1 to ${route.incident.versionCount}`);
      const links = apiLinks(publicOrigin(request));
      const body: z.infer<typeof diffSchema> = {
        incident: incidentRef(route.vendor.slug, route.incident.providerId, route.incident.current.incident.title),
        from,
        to,
        changes: diffStates(a.snapshot, b.snapshot),
        links: links.diff(route.vendor.slug, route.incident.providerId, from, to),
      };
      return answerJson(request, body);
    }),

    listChanges: apiHandler<Record<string, never>>(async (request) => {
      const resolved = await resolveList(changeListQuerySchema, request);
      if ("error" in resolved) return resolved.error;
      const { q, db, ids, before, fts } = resolved;
      const links = apiLinks(publicOrigin(request));
      const pages = fts === null ? [{ rows: [], next: null }] : await Promise.all((ids ?? [undefined]).map((vendorId) => {
        const filter = { vendorId, kinds: q.kind, impacts: q.impact, statuses: q.status, component: q.component, since: q.since, until: q.until, query: fts ?? undefined, before };
        // Words make it a search: run where searches run, under their budget.
        return fts === undefined ? listChanges(db, filter, q.limit) : searchRunnerFor(db).run("listChanges", [filter, q.limit]);
      }));
      // Several vendors: each list is already newest first; merge and keep one page.
      const merged = pages.flatMap((p) => p.rows).sort((a, b) => (a.observedAt === b.observedAt ? b.versionId - a.versionId : a.observedAt < b.observedAt ? 1 : -1));
      const rows = merged.slice(0, q.limit);
      const more = merged.length > q.limit || pages.some((p) => p.next !== null);
      const last = rows.at(-1);
      const body: Page<typeof changeItemSchema> = {
        data: rows.map((r) => ({
          incident: { ...incidentRef(r.vendorSlug, r.providerId, r.title), impact: r.impact, status: r.status },
          vendorName: r.vendorName,
          seq: r.seq,
          observedAt: r.observedAt,
          kinds: r.kinds,
          summary: r.summary,
          headline: r.headline,
          links: links.version(r.vendorSlug, r.providerId, r.seq),
        })),
        next: nextLink(request, more && last ? encodeApiCursor(`${last.observedAt}_${last.versionId}`) : null),
        limit: q.limit,
      };
      return answerJson(request, body);
    }),

    search: apiHandler<Record<string, never>>(async (request) => {
      const parsed = parseQuery(searchQuerySchema, request);
      if ("error" in parsed) return parsed.error;
      const q = parsed.data;
      const offset = q.cursor ? Number(decodeApiCursor(q.cursor)) : 0;
      if (!Number.isInteger(offset) || offset < 0 || offset > 10_000) return badCursor();
      const fts = toFtsQuery(q.q);
      if ((q.vendor?.length ?? 0) > 1) return parseErrorFor("vendor", "search takes one vendor");
      const vendor = q.vendor?.[0];
      if (vendor && !(await getVendor(database(), vendor))) return notFound(`vendor: no vendor ${JSON.stringify(vendor)}`);
      const result = fts === null ? { hits: [], more: false } : await searchRunnerFor(database()).run("searchIncidents", [fts, { vendor, from: q.since, to: q.until }, { limit: q.limit, offset }]);
      const links = apiLinks(publicOrigin(request));
      const body: Page<typeof searchHitSchema> = {
        data: result.hits.map((h) => ({
          incident: { ...incidentRef(h.vendorSlug, h.providerId, h.title), impact: h.impact, startedAt: h.startedAt },
          vendorName: h.vendorName,
          snippet: h.snippet.replaceAll(SNIPPET_OPEN, "«").replaceAll(SNIPPET_CLOSE, "»"),
          earlierVersion: h.earlierSeq,
          links: links.incident(h.vendorSlug, h.providerId),
        })),
        next: nextLink(request, result.more ? encodeApiCursor(String(offset + q.limit)) : null),
        limit: q.limit,
      };
      return answerJson(request, body);
    }),

    exportIncidentMarkdown: apiHandler<Pick<Params, "slug" | "key">>(async (request, { slug, key }) => {
      const parsed = parseQuery(emptyQuerySchema, request);
      if ("error" in parsed) return parsed.error;
      const doc = await loadIncidentExport(database(), slug, key);
      return doc ? answer(request, renderExportMarkdown(doc), "text/markdown; charset=utf-8") : notFound(`no incident ${JSON.stringify(decodeURIComponent(key))} of vendor ${JSON.stringify(slug)}`);
    }),

    exportIncidentJson: apiHandler<Pick<Params, "slug" | "key">>(async (request, { slug, key }) => {
      const parsed = parseQuery(emptyQuerySchema, request);
      if ("error" in parsed) return parsed.error;
      const doc = await loadIncidentExport(database(), slug, key);
      return doc ? answer(request, renderExportJson(doc), "application/json; charset=utf-8") : notFound(`no incident ${JSON.stringify(decodeURIComponent(key))} of vendor ${JSON.stringify(slug)}`);
    }),

    exportVersionMarkdown: apiHandler<Params>(async (request, { slug, key, seq }) => {
      const parsed = parseQuery(emptyQuerySchema, request);
      if ("error" in parsed) return parsed.error;
      const doc = await loadVersionExport(database(), slug, key, seq);
      return doc ? answer(request, renderVersionExportMarkdown(doc), "text/markdown; charset=utf-8") : notFound(`no version ${JSON.stringify(seq)} of that incident`);
    }),

    exportVersionJson: apiHandler<Params>(async (request, { slug, key, seq }) => {
      const parsed = parseQuery(emptyQuerySchema, request);
      if ("error" in parsed) return parsed.error;
      const doc = await loadVersionExport(database(), slug, key, seq);
      return doc ? answer(request, renderVersionExportJson(doc), "application/json; charset=utf-8") : notFound(`no version ${JSON.stringify(seq)} of that incident`);
    }),

    getOpenApi: apiHandler<Record<string, never>>((request) => {
      const parsed = parseQuery(emptyQuerySchema, request);
      if ("error" in parsed) return parsed.error;
      return answerJson(request, buildOpenApi({ serverUrl: publicOrigin(request), operator: operatorHandlers(database).isOperator(request) }));
    }),

    ...quietDegradationHandlers(database),
    ...operatorHandlers(database).handlers,
    ...notifyOperatorHandlers(database),
  };
}

export type Api = ReturnType<typeof createApi>;
