import { z } from "zod";
import { API_DEFAULT_LIMIT, API_MAX_LIMIT, problemSchema } from "@/lib/api/schemas";
import { API_ROUTES, type ApiRoute, PATH_PARAMS } from "@/lib/api/routes";
import { CHANGE_KIND_INFO } from "@/lib/change-kinds";
import { QUIET_DEGRADATION_DESCRIPTION } from "@/lib/components/quiet-degradation";

type JsonSchema = Record<string, unknown>;

/** A zod schema as the JSON Schema 2020-12 that OpenAPI 3.1 embeds. */
function jsonSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema;
  return rest;
}

function queryParameters(route: ApiRoute): JsonSchema[] {
  return Object.entries(route.query.shape).map(([name, field]) => {
    const schema = jsonSchema(field as z.ZodType, "input");
    const { description, ...rest } = schema;
    const optional = (field as z.ZodType).safeParse(undefined).success;
    return {
      name,
      in: "query",
      required: !optional,
      ...(typeof description === "string" ? { description } : {}),
      schema: rest,
      style: "form",
      explode: true,
    };
  });
}

function problemResponse(description: string): JsonSchema {
  return { description, content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } } };
}

function operation(route: ApiRoute): JsonSchema {
  const parameters = [
    ...(route.pathParams ?? []).map((name) => ({ name, in: "path", required: true, description: PATH_PARAMS[name].description, schema: jsonSchema(PATH_PARAMS[name].schema, "input") })),
    ...queryParameters(route),
  ];
  const content = route.response === "text/markdown"
    ? { "text/markdown": { schema: { type: "string" } } }
    : { "application/json": { schema: jsonSchema(route.response, "output") } };
  const responses: Record<string, JsonSchema> = {
    [String(route.status)]: {
      description: route.summary,
      headers: route.method === "get" ? { ETag: { schema: { type: "string" } } } : {},
      content,
    },
    "400": problemResponse("A query parameter or the body is invalid: `parameter` names it, `detail` says why."),
  };
  if (route.method === "get") responses["304"] = { description: "Not modified: the ETag sent in If-None-Match is current." };
  if ((route.pathParams ?? []).length > 0) responses["404"] = problemResponse(route.notFound ?? "No such vendor, incident, version, watchlist or subscription.");
  if (route.operator) responses["401"] = problemResponse("No operator token, or a wrong one.");
  if (route.operationId === "addVendor") responses["409"] = problemResponse("A vendor with this slug is already polled.");
  if (route.operationId === "removeWatchlist") responses["409"] = problemResponse("A subscription filters on this watchlist: remove it first.");
  if (route.operationId === "testSubscription") responses["409"] = problemResponse("The subscription is disabled.");
  return {
    operationId: route.operationId,
    summary: route.summary,
    tags: [route.tag],
    parameters,
    ...(route.body ? { requestBody: { required: true, content: { "application/json": { schema: jsonSchema(route.body, "input") } } } } : {}),
    responses,
    ...(route.operator ? { security: [{ operatorToken: [] }] } : {}),
  };
}

/**
 * The OpenAPI 3.1 document of /api/v1, from the same schemas the handlers use. Operator routes
 * appear only when `operator` is true (the request carried the operator token).
 */
export function buildOpenApi(options: { serverUrl: string; operator: boolean }): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of API_ROUTES) {
    if (route.operator && !options.operator) continue;
    (paths[route.path] ??= {})[route.method] = operation(route);
  }
  const kinds = Object.entries(CHANGE_KIND_INFO).map(([name, info]) => `- \`${name}\`: ${info.description}`).join("\n");
  return {
    openapi: "3.1.0",
    info: {
      title: "Redline API",
      version: "1.0.0",
      description:
        "Every version of every archived vendor status-page incident, and what changed. Lists page by cursor: follow `next` " +
        `until it is null; \`limit\` defaults to ${API_DEFAULT_LIMIT} and is at most ${API_MAX_LIMIT}. Every GET answers ` +
        "If-None-Match with 304. Errors are application/problem+json.\n\nChange kinds:\n" + kinds +
        `\n\nQuiet degradations (\`/quiet-degradations\`) are no change of an incident: ${QUIET_DEGRADATION_DESCRIPTION}`,
    },
    servers: [{ url: `${options.serverUrl}/api/v1` }],
    paths,
    components: {
      schemas: { Problem: jsonSchema(problemSchema, "output") },
      ...(options.operator ? { securitySchemes: { operatorToken: { type: "http", scheme: "bearer", description: "REDLINE_OPERATOR_TOKEN" } } } : {}),
    },
  };
}
