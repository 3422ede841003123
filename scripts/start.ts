/**
 * `npm start`: migrate the database, add the vendor catalog, build the web app when the build is
 * missing or older than the sources, then run the web app, the poller and the notifier, supervised.
 * `--role web|poller|notify` (comma-separated or repeated) runs only those, so a deployment can
 * run any number of each. Honours PORT, HOST, REDLINE_DATABASE_URL and REDLINE_DB (or `--db`);
 * `--no-catalog` polls only vendors added by hand.
 */
import path from "node:path";
import { closeStore, isDatabaseUrl, openStore, redact, type RedlineDb } from "@/db/client";
import { recordSupervisorEvent } from "@/db/operations/supervisor-events";
import { syncCatalogVendors } from "@/db/settings/vendors";
import { databaseLocation, readEnv } from "@/lib/env";
import { errorMessage } from "@/lib/error-message";
import { CATALOG, catalogVendorSettings } from "@/scrapers/catalog/catalog";
import { programArgs } from "@/scripts/prebuilt-program";
import { findListenProblem } from "@/scripts/port-check";
import { parseStartOptions, type Role, ROLES, type StartOptions, START_USAGE, StartUsageError } from "@/scripts/start-options";
import { type ChildSpec, supervise } from "@/scripts/supervise";
import { ensureBuilt } from "@/scripts/web-build";

const ROOT = path.resolve(__dirname, "..");

/** The database the supervisor records restarts in; without it, supervision goes on unrecorded. */
async function openEventLog(location: string): Promise<RedlineDb | null> {
  try {
    return await openStore(location);
  } catch (error) {
    console.error(`redline: unable to open the database to record restarts in: ${errorMessage(error)}; supervising without recording them`);
    return null;
  }
}

function roleChild(role: Role, env: Record<string, string>, host: string, port: number): ChildSpec {
  switch (role) {
    case "web":
      return {
        name: "web",
        command: process.execPath,
        args: programArgs("web-server"),
        env: { NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production", HOST: host, PORT: String(port), ...env },
      };
    case "poller":
      return { name: "poller", command: process.execPath, args: programArgs("redline", ["poll"]), env };
    case "notify":
      // Its own process: delivering to slow or failing targets never delays a poll.
      return { name: "notify", command: process.execPath, args: programArgs("redline", ["notify"]), env };
  }
}

function webHost(env: Record<string, string>): string {
  return env.HOST ?? process.env.HOST ?? "127.0.0.1";
}

/**
 * Whether the web role, if it runs, can listen on HOST:PORT; if not, says why on stderr, naming the
 * variable to change, for the caller to stop before anything else (a web server started there would
 * crash at once, and again at each restart).
 */
export async function webAddressUsable(roles: readonly Role[], env: Record<string, string> = {}, prefix = "redline"): Promise<boolean> {
  if (!roles.includes("web")) return true;
  const problem = await findListenProblem(webHost(env), readEnv({ ...process.env, ...env }).PORT);
  if (problem !== null) console.error(`${prefix}: ${problem}`);
  return problem === null;
}

/** The roles' processes, supervised, against the environment's database, where restarts are recorded. */
export async function superviseRoles(roles: readonly Role[] = ROLES, env: Record<string, string> = {}): Promise<number> {
  const settings = readEnv({ ...process.env, ...env });
  const { PORT } = settings;
  const host = webHost(env);
  // Again here: building the web app takes minutes, in which another process can take the port.
  if (!(await webAddressUsable(roles, env))) return 1;
  if (roles.includes("web")) console.log(`redline: serving on http://${host}:${PORT}`);
  const db = await openEventLog(databaseLocation(settings));
  try {
    return await supervise(
      roles.map((role) => roleChild(role, env, host, PORT)),
      { cwd: ROOT, record: db ? (event) => recordSupervisorEvent(db, event) : undefined },
    );
  } finally {
    if (db) await closeStore(db);
  }
}

async function main(): Promise<void> {
  let options: StartOptions;
  try {
    options = parseStartOptions(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof StartUsageError)) throw error;
    console.error(`redline: ${error.message}`);
    process.exitCode = 2;
    return;
  }
  if (options.help) {
    console.log(START_USAGE);
    return;
  }
  const { roles } = options;
  if (!(await webAddressUsable(roles))) {
    process.exitCode = 1;
    return;
  }
  const location = options.db ?? databaseLocation(readEnv());
  // The roles' processes open what --db names; a file given this way wins over REDLINE_DATABASE_URL.
  const roleEnv: Record<string, string> =
    options.db === undefined ? {} : isDatabaseUrl(options.db) ? { REDLINE_DATABASE_URL: options.db } : { REDLINE_DB: options.db, REDLINE_DATABASE_URL: "" };
  const db = await openStore(location);
  try {
    if (options.catalog && roles.includes("poller")) {
      const { added } = await syncCatalogVendors(db, catalogVendorSettings());
      console.log(`redline: catalog of ${CATALOG.length} vendors (${added} new)`);
    }
  } finally {
    await closeStore(db);
  }
  console.log(`redline: database ${redact(location)} is migrated`);
  if (roles.includes("web") && !ensureBuilt()) {
    process.exitCode = 1;
    return;
  }
  console.log(`redline: running ${roles.join(", ")}`);
  process.exitCode = await superviseRoles(roles, roleEnv);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(`redline: ${errorMessage(error)}`);
    process.exitCode = 1;
  });
}
