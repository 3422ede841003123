import { PostgresClusterError, type PostgresClusterErrorKind } from "@/tests/support/postgres-cluster-error";

/** What the global setup tells test files about the run's PostgreSQL cluster (plain data: it crosses into the workers). */
export type PostgresProvision =
  | { status: "running"; adminUrl: string; /** A migrated Redline database new test databases copy, when the suite runs on PostgreSQL. */ template?: string }
  | { status: "absent"; reason: string }
  | { status: "failed"; kind: PostgresClusterErrorKind; reason: string };

declare module "vitest" {
  export interface ProvidedContext {
    postgres: PostgresProvision;
  }
}

/**
 * After the cluster did not start: missing binaries skip PostgreSQL's tests, unless something
 * (`requiredBy`, say REDLINE_REQUIRE_POSTGRES=1) asked for it; any other failure fails them.
 */
export function provisionAfterFailure(error: unknown, requiredBy: string | undefined): PostgresProvision {
  const reason = error instanceof Error ? error.message : String(error);
  const kind = error instanceof PostgresClusterError ? error.kind : "start-failed";
  if (kind !== "binaries-not-found") return { status: "failed", kind, reason: `the test PostgreSQL cluster did not start: ${reason}` };
  if (requiredBy !== undefined) return { status: "failed", kind, reason: `${requiredBy} asks for PostgreSQL, but ${reason}` };
  return { status: "absent", reason };
}
