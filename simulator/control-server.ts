/**
 * The simulator's control endpoint, for tests and demos in another process:
 *   GET  /vendors                  every vendor: slug, name, family, baseUrl, url
 *   GET  /vendors/<slug>           one vendor, with the endpoints it serves now and its fault
 *   GET  /vendors/<slug>/state     the incidents it shows now
 *   GET  /vendors/<slug>/requests  every request it received, with arrival times
 *   GET  /faults                   faults set, by slug
 *   POST /faults                   {"slug": "...", "fault": {"kind": "hang"} | null}
 *   GET  /clock, POST /clock       {"now", "acceleration"}; POST {"at": ISO time} sets the clock
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { z } from "zod";
import { faultSchema } from "@/simulator/faults";
import { closeServer, listenLocal } from "@/simulator/listen";
import type { Simulator } from "@/simulator/server";
import { endpointsAt, type SimVendor, SimulatorError } from "@/simulator/world";

const MAX_BODY_BYTES = 64 * 1024;
const setFaultSchema = z.object({ slug: z.string().min(1), fault: faultSchema.nullable() });
const setClockSchema = z.object({ at: z.iso.datetime({ offset: true }) });

class ControlError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  const body = Buffer.from(`${JSON.stringify(value, null, 2)}\n`);
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Content-Length": body.length });
  res.end(body);
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new ControlError(413, "request body too large");
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    throw new ControlError(400, "request body is not JSON");
  }
}

function parseBody<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const result = schema.safeParse(value);
  if (!result.success) throw new ControlError(400, z.prettifyError(result.error));
  return result.data;
}

function describe(vendor: SimVendor) {
  return { slug: vendor.slug, name: vendor.name, family: vendor.family, baseUrl: vendor.baseUrl, url: vendor.url };
}

async function route(simulator: Simulator, req: IncomingMessage): Promise<[number, unknown]> {
  const { pathname } = new URL(req.url ?? "/", "http://127.0.0.1");
  const parts = pathname.split("/").filter((p) => p !== "").map(decodeURIComponent);
  const [head, slug, detail] = parts;
  const method = req.method ?? "GET";
  if (method === "GET" && head === "vendors" && slug === undefined) return [200, { now: simulator.now(), vendors: simulator.vendors.map(describe) }];
  if (method === "GET" && head === "vendors" && slug !== undefined && parts.length <= 3) {
    const vendor = simulator.vendor(slug);
    if (detail === "state") return [200, { now: simulator.now(), incidents: simulator.stateOf(slug) }];
    if (detail === "requests") return [200, simulator.requests(slug)];
    if (detail === undefined) {
      const endpoints = endpointsAt(vendor, Date.parse(simulator.now()));
      return [200, { ...describe(vendor), endpoints, fault: simulator.faults()[slug] ?? null }];
    }
  }
  if (head === "faults" && parts.length === 1) {
    if (method === "GET") return [200, simulator.faults()];
    if (method === "POST") {
      const body = parseBody(setFaultSchema, await readJson(req));
      simulator.setFault(body.slug, body.fault);
      return [200, { slug: body.slug, fault: simulator.faults()[body.slug] ?? null }];
    }
  }
  if (head === "clock" && parts.length === 1) {
    if (method === "POST") simulator.setClock(parseBody(setClockSchema, await readJson(req)).at);
    if (method === "GET" || method === "POST") return [200, { now: simulator.now(), acceleration: simulator.acceleration }];
  }
  throw new ControlError(404, `no route ${method} ${pathname}`);
}

export async function startControlServer(simulator: Simulator, port: number): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    route(simulator, req)
      .then(([status, value]) => sendJson(res, status, value))
      .catch((error: unknown) => {
        if (error instanceof ControlError) return sendJson(res, error.status, { error: error.message });
        if (error instanceof SimulatorError && error.kind === "vendor") return sendJson(res, 404, { error: error.message });
        console.error("simulator: control request failed:", error);
        sendJson(res, 500, { error: "internal error" });
      });
  });
  try {
    const bound = await listenLocal(server, port);
    return { server, url: `http://127.0.0.1:${bound}` };
  } catch (error) {
    await closeServer(server);
    throw error;
  }
}
