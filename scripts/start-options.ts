import { parseArgs } from "node:util";
import { errorMessage } from "@/lib/error-message";

/** What `npm start` can run, each as a supervised process of its own. */
export const ROLES = ["web", "poller", "notify"] as const;
export type Role = (typeof ROLES)[number];

export const START_USAGE = `usage: npm start -- [--role ${ROLES.join("|")}[,…]]… [--no-catalog] [--db <file or postgres:// url>]`;

export class StartUsageError extends Error {
  readonly kind = "usage";
}

export interface StartOptions {
  /** In the order of ROLES, each once; all of them when no --role was given. */
  roles: Role[];
  /** Add the vendor catalog, which only a poller acts on. */
  catalog: boolean;
  help: boolean;
  /** The database every role uses, instead of REDLINE_DATABASE_URL or REDLINE_DB. */
  db?: string;
}

function isRole(name: string): name is Role {
  return (ROLES as readonly string[]).includes(name);
}

/**
 * `npm start`'s arguments: `--role web`, `--role=web`, `--role web,poller` or the flag repeated.
 * Anything else is refused rather than ignored, so a mistyped `--rol web` never quietly runs
 * every role.
 */
export function parseStartOptions(args: readonly string[]): StartOptions {
  let values: { role?: string[]; "no-catalog"?: boolean; help?: boolean; db?: string };
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: { role: { type: "string", multiple: true }, "no-catalog": { type: "boolean" }, help: { type: "boolean", short: "h" }, db: { type: "string" } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new StartUsageError(`${errorMessage(error)}; ${START_USAGE}`, { cause: error });
  }
  const named = (values.role ?? []).flatMap((value) => value.split(",")).map((name) => name.trim());
  const unknown = named.filter((name) => !isRole(name));
  if (unknown.length > 0) {
    throw new StartUsageError(`unknown role ${unknown.map((name) => JSON.stringify(name)).join(", ")}: the roles are ${ROLES.join(", ")}`);
  }
  return {
    roles: named.length === 0 ? [...ROLES] : ROLES.filter((role) => named.includes(role)),
    catalog: values["no-catalog"] !== true,
    help: values.help === true,
    ...(values.db === undefined ? {} : { db: values.db }),
  };
}
