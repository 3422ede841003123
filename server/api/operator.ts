import type { RedlineDb } from "@/db/client";
import { requestPollNow } from "@/db/operations/poll-state";
import { getVendorOverview } from "@/db/queries/vendors-overview";
import { addVendor, getVendorBySlug, removeVendor, VendorExistsError, vendorState } from "@/db/settings/vendors";
import type { z } from "zod";
import { listThrottleTelemetry } from "@/db/operations/hooks";
import { addVendorBodySchema, deleteVendorQuerySchema, emptyQuerySchema, type hookTelemetrySchema } from "@/lib/api/schemas";
import { readNowRules } from "@/lib/now-rules";
import { hookSettings } from "@/server/hooks/hook-route";
import { readEnv } from "@/lib/env";
import { describeParamError } from "@/lib/page-params";
import { validateVendorInput, VendorInputError } from "@/scrapers/live/validate-vendor";
import { problem } from "@/server/http/problem";
import { publicOrigin } from "@/server/http/public-origin";
import { answerWrite, apiHandler, isOperator, notFound, parseQuery, unauthorized } from "@/server/api/respond";
import { apiLinks } from "@/lib/api/links";
import { toVendor } from "@/server/api/present";

/** A body larger than this is refused unread: a vendor's settings (or a subscription) are a few hundred bytes. */
const MAX_BODY_BYTES = 16 * 1024;

export async function readJsonBody(request: Request): Promise<{ value: unknown } | { error: Response }> {
  if (!/^application\/json\b/i.test(request.headers.get("content-type") ?? "")) {
    return { error: problem(415, "send the body as JSON, with Content-Type: application/json") };
  }
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES) return { error: problem(413, `the body is over ${MAX_BODY_BYTES} bytes`) };
  const text = await request.text();
  if (Buffer.byteLength(text) > MAX_BODY_BYTES) return { error: problem(413, `the body is over ${MAX_BODY_BYTES} bytes`) };
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (error) {
    return { error: problem(400, `the body is not JSON: ${(error as Error).message}`) };
  }
}

/** The API adds new vendors only; giving an existing one a URL is the CLI's deliberate step. */
function existingAdvice(error: VendorExistsError): string {
  const cli = `\`redline vendors add --slug ${error.existing.slug} --add-source …\``;
  if (vendorState(error.existing) === "polled") return `choose another slug, or remove it and give it the new URL with ${cli} (its history stays)`;
  return `choose another slug, or give it this URL with ${cli} (its history stays)`;
}

/**
 * The API's write operations. Each needs the operator token; without it (or when none is
 * configured) the answer is 401 and nothing is read or written.
 */
export function operatorHandlers(database: () => RedlineDb) {
  return {
    isOperator,
    handlers: {
      addVendor: apiHandler<Record<string, never>>(async (request) => {
        if (!isOperator(request)) return unauthorized();
        const query = parseQuery(emptyQuerySchema, request);
        if ("error" in query) return query.error;
        const body = await readJsonBody(request);
        if ("error" in body) return body.error;
        const parsed = addVendorBodySchema.safeParse(body.value);
        if (!parsed.success) {
          const issue = parsed.error.issues[0];
          const field = issue?.code === "unrecognized_keys" ? issue.keys[0] : issue?.path[0] === undefined ? undefined : String(issue.path[0]);
          return problem(400, describeParamError(parsed.error), { parameter: field });
        }
        const input = parsed.data;
        let checked: { url: string; intervalSeconds: number | null };
        try {
          checked = validateVendorInput(input, readEnv().REDLINE_ALLOW_PRIVATE_URLS);
        } catch (error) {
          if (error instanceof VendorInputError) return problem(400, error.message, { parameter: error.field === "interval" ? "intervalSeconds" : error.field });
          throw error;
        }
        const db = database();
        try {
          await addVendor(db, { slug: input.slug, name: input.name, platform: input.platform, url: checked.url, intervalSeconds: checked.intervalSeconds }, "user");
        } catch (error) {
          if (error instanceof VendorExistsError) return problem(409, `${error.message}; ${existingAdvice(error)}`, { parameter: "slug" });
          throw error;
        }
        const overview = await getVendorOverview(db, new Date(), readNowRules(), input.slug);
        const links = apiLinks(publicOrigin(request));
        if (!overview) throw new Error(`api: vendor ${input.slug} vanished after being added`);
        return answerWrite(201, toVendor(links, overview), { location: links.vendor(input.slug).self });
      }),

      removeVendor: apiHandler<{ slug: string }>(async (request, { slug }) => {
        if (!isOperator(request)) return unauthorized();
        const query = parseQuery(deleteVendorQuerySchema, request);
        if ("error" in query) return query.error;
        const db = database();
        if (!(await getVendorBySlug(db, slug))) return notFound(`no vendor ${JSON.stringify(slug)}`);
        const purge = query.data.purge === "true";
        const { incidents } = await removeVendor(db, slug, purge);
        return answerWrite(200, { slug, purged: purge, incidents });
      }),

      getHookTelemetry: apiHandler<Record<string, never>>(async (request) => {
        if (!isOperator(request)) return unauthorized();
        const query = parseQuery(emptyQuerySchema, request);
        if ("error" in query) return query.error;
        const env = readEnv();
        const settings = hookSettings(env);
        const body: z.infer<typeof hookTelemetrySchema> = {
          limits: {
            perSource: settings.perSource,
            ceiling: settings.ceiling,
            maxBodyBytes: settings.maxBodyBytes,
            debounceSeconds: env.REDLINE_HOOK_DEBOUNCE_SECONDS,
            alertIntervalSeconds: env.REDLINE_ALERT_INTERVAL_SECONDS,
          },
          scopes: await listThrottleTelemetry(database()),
        };
        return answerWrite(200, body);
      }),

      pollVendor: apiHandler<{ slug: string }>(async (request, { slug }) => {
        if (!isOperator(request)) return unauthorized();
        const query = parseQuery(emptyQuerySchema, request);
        if ("error" in query) return query.error;
        const db = database();
        const vendor = await getVendorBySlug(db, slug);
        if (!vendor) return notFound(`no vendor ${JSON.stringify(slug)}`);
        if (!vendor.enabled || vendor.url === null) return problem(409, `${slug} is not polled (it was removed, or is known only from imports)`);
        const now = new Date().toISOString();
        await requestPollNow(db, vendor.id, now);
        return answerWrite(202, { slug, requestedAt: now, detail: "the poller polls it within a second or two, if it is running" });
      }),
    },
  };
}
