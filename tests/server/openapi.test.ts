import fs from "node:fs";
import path from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { RedlineDb } from "@/db/client";
import { addSubscription } from "@/db/notifications/subscriptions";
import { saveWatchlist } from "@/db/notifications/watchlists";
import { subscriptionFilterSchema } from "@/lib/notify/subscription-filter";
import { type Api, createApi } from "@/server/api/api";
import { archiveAcmeLifecycle } from "@/tests/support/acme-archive";
import { freshDatabase } from "@/tests/support/database";
import { archiveQuietDegradations } from "@/tests/support/quiet-archive";
import { makeTestPlatform } from "@/tests/support/test-platform";

const ORIGIN = "http://redline.test";
const TOKEN = "operator-token-for-tests-0123456789";
const platform = makeTestPlatform({ kind: "recent", limit: 100 });

interface Operation {
  operationId: string;
  parameters: { name: string; in: string; required: boolean }[];
  requestBody?: unknown;
  security?: unknown[];
  responses: Record<string, { content?: Record<string, { schema: object }> }>;
}
type Doc = { openapi: string; paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, object> } };

let db: RedlineDb;
let api: Api;

beforeAll(async () => {
  db = await freshDatabase();
  api = createApi(() => db);
  await archiveAcmeLifecycle(db, platform);
  // Quiet degradations, so their list answers items for the schema to check.
  await archiveQuietDegradations(db);
  await saveWatchlist(db, { name: "core", vendors: ["acme"], components: [] });
  EXAMPLES.id = (await addSubscription(db, { target: "https://hooks.example.com/seeded", format: "webhook", filter: subscriptionFilterSchema.parse({}), watchlist: null, digest: null })).id;
});

/** Values for every path parameter and required query parameter a documented route can take. */
const EXAMPLES: Record<string, string> = { slug: "acme", key: "k3x9", seq: "2", from: "1", to: "3", q: "webhook", name: "core" };
/** The body each write takes; the rest add a vendor. */
const BODIES: Record<string, object> = {
  saveWatchlist: { name: "platform", vendors: ["acme"], components: ["acme:API"] },
  addSubscription: { target: "https://hooks.example.com/redline", vendors: ["acme"], minImpact: "major" },
};

async function invoke(operationId: string, method: string, template: string, op: Operation, headers: Record<string, string> = {}) {
  const pathParams = Object.fromEntries(op.parameters.filter((p) => p.in === "path").map((p) => [p.name, EXAMPLES[p.name] ?? ""]));
  const query = new URLSearchParams(op.parameters.filter((p) => p.in === "query" && p.required).map((p) => [p.name, EXAMPLES[p.name] ?? ""]));
  const pathname = template.replace(/\{(\w+)\}/g, (_, name: string) => pathParams[name] ?? "");
  const body = op.requestBody ? JSON.stringify(BODIES[operationId] ?? { slug: "newco", name: "NewCo", platform: "statuspage", url: "https://status.newco.example" }) : undefined;
  const request = new Request(`${ORIGIN}/api/v1${pathname}${query.size ? `?${query.toString()}` : ""}`, {
    method: method.toUpperCase(),
    headers: { ...headers, ...(body ? { "content-type": "application/json" } : {}) },
    body,
  });
  const handler = api[operationId as keyof Api] as ((request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>) | undefined;
  if (!handler) throw new Error(`no handler for documented operation ${operationId}`);
  return handler(request, { params: Promise.resolve(pathParams) });
}

async function openApi(headers: Record<string, string> = {}): Promise<Doc> {
  const response = await api.getOpenApi(new Request(`${ORIGIN}/api/v1/openapi.json`, { headers }), { params: Promise.resolve({}) });
  expect(response.status).toBe(200);
  return (await response.json()) as Doc;
}

describe("the OpenAPI document", () => {
  it("is OpenAPI 3.1 and lists the write operations only for the operator", async () => {
    vi.stubEnv("REDLINE_OPERATOR_TOKEN", TOKEN);
    const anonymous = await openApi();
    expect(anonymous.openapi).toBe("3.1.0");
    const ops = (doc: Doc) => Object.values(doc.paths).flatMap((p) => Object.values(p).map((o) => o.operationId));
    expect(ops(anonymous)).not.toEqual(expect.arrayContaining(["addVendor"]));
    expect(ops(anonymous)).not.toContain("removeVendor");
    expect(ops(anonymous)).not.toContain("pollVendor");
    const operator = await openApi({ authorization: `Bearer ${TOKEN}` });
    expect(ops(operator)).toEqual(expect.arrayContaining(["addVendor", "removeVendor", "pollVendor"]));
    // Every handler is documented, and nothing documented lacks a handler.
    expect(ops(operator).sort()).toEqual(Object.keys(api).sort());
    vi.unstubAllEnvs();
  });

  it("has a route file exporting each documented method at each documented path", async () => {
    vi.stubEnv("REDLINE_OPERATOR_TOKEN", TOKEN);
    const doc = await openApi({ authorization: `Bearer ${TOKEN}` });
    for (const [template, methods] of Object.entries(doc.paths)) {
      const file = path.join(process.cwd(), "app", "api", "v1", template.replace(/\{(\w+)\}/g, "[$1]"), "route.ts");
      expect(fs.existsSync(file), file).toBe(true);
      const source = fs.readFileSync(file, "utf8");
      for (const [method, op] of Object.entries(methods)) expect(source, file).toContain(`export const ${method.toUpperCase()} = api.${op.operationId};`);
    }
    vi.unstubAllEnvs();
  });

  it("describes what every documented route answers: each one, called, matches its schema", async () => {
    vi.stubEnv("REDLINE_OPERATOR_TOKEN", TOKEN);
    const doc = await openApi({ authorization: `Bearer ${TOKEN}` });
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    ajv.addSchema({ $id: "doc", components: doc.components }, "doc");
    // Writes last, and the removal after the addition, so each finds what it needs.
    const order = ["get", "post", "delete"];
    const operations = Object.entries(doc.paths)
      .flatMap(([template, methods]) => Object.entries(methods).map(([method, op]) => ({ template, method, op })))
      .sort((a, b) => order.indexOf(a.method) - order.indexOf(b.method) || (a.op.operationId === "pollVendor" ? 1 : 0) - (b.op.operationId === "pollVendor" ? 1 : 0));
    expect(operations.length).toBeGreaterThanOrEqual(16);
    for (const { template, method, op } of operations) {
      const headers: Record<string, string> = op.security ? { authorization: `Bearer ${TOKEN}` } : {};
      // The writes act on the vendor the addition made.
      EXAMPLES.slug = method !== "get" ? "newco" : "acme";
      const response = await invoke(op.operationId, method, template, op, headers);
      const [status, documented] = Object.entries(op.responses).find(([code]) => code.startsWith("2")) ?? [];
      expect(String(response.status), `${method} ${template}`).toBe(status);
      const [contentType, media] = Object.entries(documented?.content ?? {})[0] ?? [];
      expect(response.headers.get("content-type") ?? "", `${method} ${template}`).toMatch(new RegExp(`^${(contentType ?? "").replace("+", "\\+")}`));
      if (contentType === "application/json" && media) {
        const validate = ajv.compile({ ...media.schema, $id: `${op.operationId}-response` });
        const body: unknown = await response.json();
        expect(validate(body) ? [] : validate.errors, `${method} ${template}`).toEqual([]);
      }
    }
    vi.unstubAllEnvs();
  });

  it("documents the problem answers with a schema the real ones match", async () => {
    const doc = await openApi();
    const ajv = new Ajv2020({ strict: false });
    const validate = ajv.compile(doc.components.schemas.Problem ?? {});
    const bad = await api.listChanges(new Request(`${ORIGIN}/api/v1/changes?limit=0`), { params: Promise.resolve({}) });
    expect(validate(await bad.json())).toBe(true);
    const missing = await api.getVendor(new Request(`${ORIGIN}/api/v1/vendors/nope`), { params: Promise.resolve({ slug: "nope" }) });
    expect(validate(await missing.json())).toBe(true);
  });

  it("documents the page as it was with its moment, and the 400 and 404 problems it answers", async () => {
    const op = (await openApi()).paths["/vendors/{slug}/status"]?.get;
    expect(op?.parameters.map((p) => [p.name, p.in, p.required])).toEqual([["slug", "path", true], ["at", "query", false]]);
    expect(Object.keys(op?.responses ?? {}).sort()).toEqual(["200", "304", "400", "404"]);
    expect(JSON.stringify(op?.responses["404"])).toContain("archived");
    const ajv = new Ajv2020({ strict: false });
    const validate = ajv.compile((await openApi()).components.schemas.Problem ?? {});
    const status = (query: string) => api.getVendorStatus(new Request(`${ORIGIN}/api/v1/vendors/acme/status${query}`), { params: Promise.resolve({ slug: "acme" }) });
    for (const [query, code] of [["?at=noon", 400], ["?at=1999-01-01T00:00:00Z", 404]] as const) {
      const response = await status(query);
      expect(response.status, query).toBe(code);
      expect(response.headers.get("content-type"), query).toMatch(/^application\/problem\+json/);
      expect(validate(await response.json()), query).toBe(true);
    }
  });
});
