import { cache } from "react";
import { resolveIncidentPage, resolveVersionRoute } from "@/db/queries/incident-route";
import { getServerDb } from "@/db/driver/server-db";

/*
 * An incident's pages read their route twice per request, once for generateMetadata and once for
 * the page; React's request cache makes the second read the first one's result.
 */
export const incidentRoute = cache((slug: string, key: string) => resolveIncidentPage(getServerDb(), slug, key));

export const versionRoute = cache((slug: string, key: string, seq: string) => resolveVersionRoute(getServerDb(), slug, key, seq));
