import { get, type IncomingHttpHeaders, type IncomingMessage } from "node:http";

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** The response as sent (no redirect following, no decompression), on a fresh connection. */
export function fetchRaw(url: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = get(url, { headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("error", reject);
  });
}

/** Reads the response until `enough` says stop, then drops the connection: for endless or slow bodies. */
export function readUntil(
  url: string,
  enough: (chunks: readonly Buffer[], received: number) => boolean,
): Promise<{ res: IncomingMessage; chunks: Buffer[]; received: number }> {
  return new Promise((resolve, reject) => {
    const req = get(url, { agent: false }, (res) => {
      const chunks: Buffer[] = [];
      let received = 0;
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        req.destroy();
        resolve({ res, chunks, received });
      };
      res.on("data", (chunk: Buffer) => {
        chunks.push(chunk);
        received += chunk.length;
        if (enough(chunks, received)) finish();
      });
      res.on("end", finish);
      res.on("error", (error) => (done ? undefined : reject(error)));
    });
    req.on("error", (error) => reject(error));
  });
}
