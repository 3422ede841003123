/**
 * `npm run demo`: Redline against the vendor simulator with accelerated time (one real second is
 * a simulated hour), in its own database (data/demo.db, recreated each run). Within a minute the
 * poller archives incidents and the edits vendors make to them.
 */
import fs from "node:fs";
import path from "node:path";
import { closeDatabase, openDatabase } from "@/db/client";
import { addVendor } from "@/db/vendors";
import { readEnv } from "@/lib/env";
import { errorMessage } from "@/lib/error-message";
import { ensureBuilt, runWebAndPoller } from "@/scripts/start";
import { startSimulator } from "@/simulator/server";

const ROOT = path.resolve(__dirname, "..");
const DEMO_DB = path.join(ROOT, "data", "demo.db");
const VENDORS = Number(process.env.REDLINE_DEMO_VENDORS ?? 12);

async function main(): Promise<void> {
  const { PORT } = readEnv();
  for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(`${DEMO_DB}${suffix}`, { force: true });
  const simulator = await startSimulator({ count: VENDORS, acceleration: 3_600, seed: Date.now() % 10_000 });
  const db = openDatabase(DEMO_DB);
  for (const v of simulator.vendors) addVendor(db, { slug: v.slug, name: v.name, platform: v.family, url: v.url, intervalSeconds: 10 }, "user");
  closeDatabase(db);
  console.log(`redline demo: ${simulator.vendors.length} simulated vendors (${[...new Set(simulator.vendors.map((v) => v.family))].join(", ")})`);
  console.log(`redline demo: simulator control at ${simulator.controlUrl ?? "(off)"}; database ${path.relative(ROOT, DEMO_DB)}`);
  try {
    if (!ensureBuilt()) {
      process.exitCode = 1;
      return;
    }
    process.exitCode = await runWebAndPoller({
      REDLINE_DB: DEMO_DB,
      REDLINE_ALLOW_PRIVATE_URLS: "1",
      REDLINE_HOST_INTERVAL_MS: "500",
      REDLINE_POLL_CONCURRENCY: "8",
      REDLINE_RESPONSE_TIMEOUT_MS: "5000",
      REDLINE_POSTMORTEM_INTERVAL_SECONDS: "10",
      PORT: String(PORT),
    });
  } finally {
    await simulator.stop();
  }
}

main().catch((error: unknown) => {
  console.error(`redline demo: ${errorMessage(error)}`);
  process.exitCode = 1;
});
