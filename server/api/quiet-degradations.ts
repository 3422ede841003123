import type { z } from "zod";
import type { RedlineDb } from "@/db/client";
import { decodeCursor, encodeCursor } from "@/db/driver/prepared";
import { listQuietDegradations } from "@/db/queries/quiet-degradations";
import { getVendor } from "@/db/queries/vendor-profile";
import { findUnknownVendor } from "@/db/queries/vendor-names";
import { type pageSchema, quietDegradationListQuerySchema, type quietDegradationSchema, vendorQuietDegradationListQuerySchema } from "@/lib/api/schemas";
import { apiLinks } from "@/lib/api/links";
import { presentQuietDegradation } from "@/lib/api/present";
import { decodeApiCursor, encodeApiCursor } from "@/server/api/present";
import { answerJson, apiHandler, badCursor, nextLink, notFound, parseQuery } from "@/server/api/respond";
import { publicOrigin } from "@/server/http/public-origin";

type Query = z.infer<typeof quietDegradationListQuerySchema>;

/** The quiet degradations' lists of /api/v1: every vendor's (or some), and one vendor's. */
export function quietDegradationHandlers(database: () => RedlineDb) {
  const list = async (request: Request, db: RedlineDb, q: Query, vendorIds: number[] | undefined): Promise<Response> => {
    const before = q.cursor ? decodeCursor(decodeApiCursor(q.cursor) ?? "") : null;
    if (q.cursor && !before) return badCursor();
    const page = await listQuietDegradations(db, { vendorIds, group: q.group, component: q.component, since: q.since, until: q.until, before }, q.limit);
    const links = apiLinks(publicOrigin(request));
    const body: z.infer<ReturnType<typeof pageSchema<typeof quietDegradationSchema>>> = {
      data: page.rows.map((row) => presentQuietDegradation(links, row)),
      next: nextLink(request, page.next ? encodeApiCursor(encodeCursor(page.next)) : null),
      limit: q.limit,
    };
    return answerJson(request, body);
  };

  return {
    listQuietDegradations: apiHandler<Record<string, never>>(async (request) => {
      const parsed = parseQuery(quietDegradationListQuerySchema, request);
      if ("error" in parsed) return parsed.error;
      const db = database();
      const vendors = parsed.data.vendor ? await Promise.all(parsed.data.vendor.map((slug) => getVendor(db, slug))) : undefined;
      if (vendors?.some((v) => v === undefined)) return notFound(`vendor: no vendor ${JSON.stringify(await findUnknownVendor(db, parsed.data.vendor ?? []))}`);
      return list(request, db, parsed.data, vendors?.flatMap((v) => (v ? [v.id] : [])));
    }),

    listVendorQuietDegradations: apiHandler<{ slug: string }>(async (request, { slug }) => {
      const parsed = parseQuery(vendorQuietDegradationListQuerySchema, request);
      if ("error" in parsed) return parsed.error;
      const db = database();
      const vendor = await getVendor(db, slug);
      if (!vendor) return notFound(`no vendor ${JSON.stringify(slug)}`);
      return list(request, db, parsed.data, [vendor.id]);
    }),
  };
}
