/**
 * `npm run demo`: Redline against the vendor simulator with accelerated time (one real second is
 * a simulated hour), in its own database (data/demo.db, recreated each run). Within a minute the
 * poller archives incidents and the edits vendors make to them; within three, every vendor whose
 * page states a grid has played its component story (simulator/README.md). Simulated time starts
 * four weeks back, once the web app is built, and stops at real time, so the pages never show times
 * still to come as past; the poller observes by the same clock.
 */
import fs from "node:fs";
import path from "node:path";
import { closeDatabase, openDatabase } from "@/db/client";
import { addVendor } from "@/db/settings/vendors";
import { catchUpAt, formatCatchUpClock } from "@/lib/catch-up-clock";
import { readEnv } from "@/lib/env";
import { errorMessage } from "@/lib/error-message";
import { superviseRoles, webAddressUsable } from "@/scripts/start";
import { ROLES } from "@/scripts/start-options";
import { ensureBuilt } from "@/scripts/web-build";
import { plannedEndpoints } from "@/scrapers/live/live-platform";
import { getWireFormat } from "@/simulator/formats";
import { startSimulator } from "@/simulator/server";
import type { SimVendor } from "@/simulator/world";

const ROOT = path.resolve(__dirname, "..");
const DEMO_DB = path.join(ROOT, "data", "demo.db");
const VENDORS = Number(process.env.REDLINE_DEMO_VENDORS ?? 12);
const ACCELERATION = 3_600;
const REPLAY_MS = 28 * 24 * 3_600_000;
/**
 * Two simulated hours between polls while time runs accelerated: finer than the scripted steps
 * (an incident posted three hours after its component degraded is seen to be late).
 */
const INTERVAL_SECONDS = 2;

function statesGrid(vendor: SimVendor): boolean {
  return plannedEndpoints(vendor.live.plan(new URL(vendor.url))).some((e) => getWireFormat(e.platform)?.readBackGrid !== undefined);
}

async function main(): Promise<void> {
  const { PORT } = readEnv();
  // Before this demo's archive replaces the one a demo already serving there may be using.
  if (!(await webAddressUsable(ROLES, { PORT: String(PORT) }, "redline demo"))) {
    process.exitCode = 1;
    return;
  }
  // Before the simulated clock starts: the build blocks this process, and the replay would run on without a poller.
  if (!ensureBuilt()) {
    process.exitCode = 1;
    return;
  }
  for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(`${DEMO_DB}${suffix}`, { force: true });
  const simulator = await startSimulator({
    count: VENDORS, acceleration: ACCELERATION, start: new Date(Date.now() - REPLAY_MS).toISOString(), notAfterRealTime: true, seed: Date.now() % 10_000,
  });
  const clock = simulator.clockAnchor();
  const db = openDatabase(DEMO_DB);
  for (const v of simulator.vendors) await addVendor(db, { slug: v.slug, name: v.name, platform: v.family, url: v.url, intervalSeconds: INTERVAL_SECONDS }, "user");
  closeDatabase(db);
  console.log(`redline demo: ${simulator.vendors.length} simulated vendors (${[...new Set(simulator.vendors.map((v) => v.family))].join(", ")})`);
  console.log(`redline demo: simulator control at ${simulator.controlUrl ?? "(off)"}; database ${path.relative(ROOT, DEMO_DB)}`);
  const caughtUp = new Date(catchUpAt(clock)).toISOString().slice(11, 19);
  console.log(
    `redline demo: simulated time starts at ${simulator.now().slice(0, 16).replace("T", " ")} UTC and runs an hour a second until it reaches real time (at ${caughtUp} UTC), then at real time; each vendor is polled every ${INTERVAL_SECONDS} s`,
  );
  const grids = simulator.vendors.filter(statesGrid).map((v) => `${v.slug} (${v.family})`);
  console.log(
    `redline demo: ${grids.join(", ")} state a component grid; each plays, once a simulated week (under three minutes here), a degradation nobody writes up (/?show=degradations), an incident posted three hours late, and a component added, renamed and removed`,
  );
  try {
    process.exitCode = await superviseRoles(ROLES, {
      REDLINE_DB: DEMO_DB,
      REDLINE_ALLOW_PRIVATE_URLS: "1",
      // A Statuspage round with its incident pages is a dozen requests to one host: about 20 simulated minutes at this spacing.
      REDLINE_HOST_INTERVAL_MS: "100",
      REDLINE_POLL_CONCURRENCY: "8",
      REDLINE_RESPONSE_TIMEOUT_MS: "5000",
      REDLINE_POSTMORTEM_INTERVAL_SECONDS: "10",
      REDLINE_DEMO_CLOCK: formatCatchUpClock(clock),
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
