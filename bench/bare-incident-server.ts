/**
 * The web benchmark's baseline: a bare Node http server that answers an incident path with the
 * incident's row and current snapshot as JSON, read with one prepared better-sqlite3 statement
 * (the snapshot is the incident's latest logged record, projected: db/history/version-states.ts).
 * Run as `node --import tsx bench/bare-incident-server.ts <db> <port>`; prints "listening <port>".
 */
import http from "node:http";
import Database from "better-sqlite3";
import { type PackedJson, unpackJson } from "@/db/history/packed-json";
import { projectRecord } from "@/db/history/version-states";
import { providerIdFromKey } from "@/lib/incident-key";

const PATH = /^\/vendors\/([^/]+)\/incidents\/([^/?]+)$/;

function serve(file: string, port: number): void {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  const incident = db.prepare<[string, string], Record<string, unknown> & { state: PackedJson }>(
    `SELECT i.*, (SELECT s.state FROM incident_states s WHERE s.incident_id = i.id ORDER BY s.id DESC LIMIT 1) AS state
     FROM vendors d JOIN incidents i ON i.vendor_id = d.id AND i.provider_id = ? WHERE d.slug = ?`,
  );
  const server = http.createServer((req, res) => {
    const m = PATH.exec(req.url ?? "");
    const providerId = m?.[2] ? providerIdFromKey(m[2]) : null;
    const row = m?.[1] && providerId !== null ? incident.get(providerId, decodeURIComponent(m[1])) : undefined;
    if (!row) {
      res.writeHead(404, { "content-type": "application/json" }).end("{}");
      return;
    }
    const { state, ...incidentRow } = row;
    res.writeHead(200, { "content-type": "application/json; charset=utf-8" }).end(JSON.stringify({ ...incidentRow, snapshot: projectRecord(unpackJson(state)) }));
  });
  server.listen(port, "127.0.0.1", () => console.log(`listening ${port}`));
  const stop = () => server.close(() => db.close());
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

serve(process.argv[2] ?? "", Number(process.argv[3] ?? 0));
