import http from "node:http";
import type { AddressInfo } from "node:net";

export interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
  at: number;
}

export interface Answer {
  status: number;
  headers?: Record<string, string>;
}

/** A local webhook receiver: records every request and answers from a script (200 when it runs out). */
export async function startReceiver(script: Answer[] = []): Promise<{ url: string; received: Received[]; answers: Answer[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const answers = [...script];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(", ") : (v ?? "")]));
      received.push({ path: req.url ?? "/", headers, body: Buffer.concat(chunks).toString("utf8"), at: Date.now() });
      const answer = answers.shift() ?? { status: 200 };
      res.writeHead(answer.status, { "content-type": "text/plain", ...answer.headers });
      res.end(answer.status < 300 ? "ok" : `status ${answer.status}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    answers,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
