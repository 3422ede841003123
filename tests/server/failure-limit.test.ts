import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createFailureLimit } from "@/server/failure-limit";
import { trustProxies } from "@/server/http/client-address";
import { SIGN_IN_FAILED_LOCATION } from "@/server/operator-session";

const TOKEN = "the-right-operator-token";
let server: http.Server | undefined;

afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** A sign-in that answers as app/operator/session does, behind the failure limit; `log` gathers its lines. */
async function serve(log: string[]): Promise<number> {
  let clock = 0;
  const failures = createFailureLimit({ burst: 3, intervalSeconds: 10, trust: trustProxies([]) }, (line) => log.push(line), () => clock);
  server = http.createServer((req, res) => {
    if (req.url === "/tick") {
      clock += 10_000;
      return void res.end();
    }
    if (failures.guardSignIn(req, res)) return;
    let body = "";
    req.on("data", (d: Buffer) => (body += d.toString()));
    req.on("end", () => {
      const right = new URLSearchParams(body).get("token") === TOKEN;
      res.writeHead(303, { location: right ? "/operator" : SIGN_IN_FAILED_LOCATION }).end();
    });
  });
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", () => resolve()));
  return (server.address() as AddressInfo).port;
}

function signIn(port: number, token: string, from: string, path = "/operator/session") {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, path, method: "POST", localAddress: from, headers: { "content-type": "application/x-www-form-urlencoded" } }, (res) => {
      let body = "";
      res.on("data", (d: Buffer) => (body += d.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end(`token=${token}`);
  });
}

describe("failed sign-ins", () => {
  it("after three wrong tokens a client waits, even with the right one, while another client signs in", async () => {
    const log: string[] = [];
    const port = await serve(log);
    const statuses = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await signIn(port, `guess-number-${i}`, "127.0.0.1")).status);
    expect(statuses).toEqual([303, 303, 303]);
    const refused = await signIn(port, "guess-number-3", "127.0.0.1");
    expect(refused.status).toBe(429);
    expect(refused.headers["retry-after"]).toBe("10");
    expect(refused.headers["content-type"]).toMatch(/^text\/html/);
    expect(refused.body).toContain('href="/operator"');
    expect((await signIn(port, TOKEN, "127.0.0.1")).status).toBe(429);
    const other = await signIn(port, TOKEN, "127.0.0.2");
    expect(other).toMatchObject({ status: 303, headers: { location: "/operator" } });
  });

  it("hears the client again once it waited as told", async () => {
    const port = await serve([]);
    for (let i = 0; i < 3; i += 1) await signIn(port, `guess-number-${i}`, "127.0.0.1");
    expect((await signIn(port, TOKEN, "127.0.0.1")).status).toBe(429);
    await new Promise<void>((resolve) => http.get(`http://127.0.0.1:${port}/tick`, (res) => res.resume().on("end", resolve)));
    expect((await signIn(port, TOKEN, "127.0.0.1")).headers.location).toBe("/operator");
  });

  it("logs each failed sign-in once with the client and the route, never the token tried", async () => {
    const log: string[] = [];
    const port = await serve(log);
    await signIn(port, "guess-number-0", "127.0.0.1");
    await signIn(port, TOKEN, "127.0.0.1");
    await signIn(port, "guess-number-1", "127.0.0.1", "/operator/./session");
    expect(log).toEqual([
      "failed sign-in from 127.0.0.1 (POST /operator/session); 2 more before it waits",
      "failed sign-in from 127.0.0.1 (POST /operator/session); 1 more before it waits",
    ]);
    expect(log.join("\n")).not.toContain("guess");
  });
});
