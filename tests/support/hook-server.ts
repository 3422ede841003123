/**
 * The webhook endpoint alone, in a process of its own as in production (the web process), for the
 * flood test: `node --import tsx tests/support/hook-server.ts <db> <port>`, settings from the
 * environment like the web server's; port 0 takes a free one. Prints "listening on <port>" when ready.
 */
import http from "node:http";
import { closeDatabase, openDatabase } from "@/db/client";
import { readEnv } from "@/lib/env";
import { createAlertSender } from "@/server/hooks/alert-sender";
import { createHookHandler, hookSettings } from "@/server/hooks/hook-route";
import { ThrottleTelemetry } from "@/server/hooks/throttle-telemetry";

const [file = "", port = "0"] = process.argv.slice(2);
const env = readEnv();
const db = openDatabase(file);
const telemetry = new ThrottleTelemetry(() => db, env.REDLINE_ALERT_INTERVAL_SECONDS * 1000, createAlertSender(env.REDLINE_ALERT_WEBHOOK_URL));
const flush = setInterval(() => void telemetry.flush(), 200);
const hooks = createHookHandler({ db: () => db, telemetry, settings: hookSettings(env) });
const server = http.createServer((req, res) => {
  hooks(req, res).then(
    (handled) => {
      if (!handled) res.writeHead(404).end();
    },
    (error: unknown) => {
      console.error(`hook-server: ${(error as Error).stack ?? String(error)}`);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    },
  );
});
server.listen(Number(port), "127.0.0.1", () => {
  const address = server.address();
  console.log(`listening on ${typeof address === "object" && address ? address.port : port}`);
});
process.on("SIGTERM", () => {
  clearInterval(flush);
  void telemetry.flush().finally(() =>
    server.close(() => {
      closeDatabase(db);
      process.exit(0);
    }),
  );
  server.closeAllConnections();
});
