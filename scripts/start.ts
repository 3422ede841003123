/**
 * `npm start`: migrate the database, add the vendor catalog, build the web app when the build is
 * missing or older than the sources, then run the web app and the poller together, supervised.
 * Honours PORT, HOST and REDLINE_DB; `npm start -- --no-catalog` polls only vendors added by hand.
 */
import path from "node:path";
import { closeDatabase, openDatabase, type RedlineDb } from "@/db/client";
import { recordSupervisorEvent } from "@/db/supervisor-events";
import { syncCatalogVendors } from "@/db/vendors";
import { readEnv } from "@/lib/env";
import { errorMessage } from "@/lib/error-message";
import { CATALOG, catalogVendorSettings } from "@/scrapers/catalog/catalog";
import { programArgs } from "@/scripts/prebuilt-program";
import { supervise } from "@/scripts/supervise";
import { ensureBuilt } from "@/scripts/web-build";

const ROOT = path.resolve(__dirname, "..");

/** The database the supervisor records restarts in; without it, supervision goes on unrecorded. */
function openEventLog(file: string): RedlineDb | null {
  try {
    return openDatabase(file);
  } catch (error) {
    console.error(`redline: unable to open the database to record restarts in: ${errorMessage(error)}; supervising without recording them`);
    return null;
  }
}

/** The web app, the poller and the notifier, supervised, against the environment's database, where restarts are recorded. */
export async function runWebAndPoller(env: Record<string, string> = {}): Promise<number> {
  const { PORT, REDLINE_DB } = readEnv({ ...process.env, ...env });
  const host = env.HOST ?? process.env.HOST ?? "127.0.0.1";
  console.log(`redline: serving on http://${host}:${PORT}`);
  const db = openEventLog(REDLINE_DB);
  try {
    return await supervise(
      [
        {
          name: "web",
          command: process.execPath,
          args: programArgs("web-server"),
          env: { NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production", HOST: host, PORT: String(PORT), ...env },
        },
        { name: "poller", command: process.execPath, args: programArgs("redline", ["poll"]), env },
        // Its own process: delivering to slow or failing targets never delays a poll.
        { name: "notify", command: process.execPath, args: programArgs("redline", ["notify"]), env },
      ],
      { cwd: ROOT, record: db ? (event) => recordSupervisorEvent(db, event) : undefined },
    );
  } finally {
    if (db) closeDatabase(db);
  }
}

async function main(): Promise<void> {
  const env = readEnv();
  const db = openDatabase(env.REDLINE_DB);
  try {
    if (!process.argv.includes("--no-catalog")) {
      const { added } = syncCatalogVendors(db, catalogVendorSettings());
      console.log(`redline: catalog of ${CATALOG.length} vendors (${added} new)`);
    }
  } finally {
    closeDatabase(db);
  }
  console.log(`redline: database ${env.REDLINE_DB} is migrated`);
  if (!ensureBuilt()) {
    process.exitCode = 1;
    return;
  }
  process.exitCode = await runWebAndPoller();
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(`redline: ${errorMessage(error)}`);
    process.exitCode = 1;
  });
}
