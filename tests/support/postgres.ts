import { afterAll, afterEach, beforeAll, beforeEach, describe, inject, it } from "vitest";
import { PostgresClusterError } from "@/tests/support/postgres-cluster-error";
import { createPostgresDatabase, dropPostgresDatabase } from "@/tests/support/postgres-databases";
import type { PostgresProvision } from "@/tests/support/postgres-provision";

export { testDatabaseDialect } from "@/tests/support/test-database-settings";

const provision: PostgresProvision = inject("postgres") ?? {
  status: "absent",
  reason: "no PostgreSQL global setup ran (tests/support/postgres-global-setup.ts in vitest.config.mts)",
};

/** Whether this run has a PostgreSQL cluster to test against. */
export const postgresAvailable = provision.status === "running";

/** The run's cluster, as a superuser; only inside a describePostgres block. */
export function postgresAdminUrl(): string {
  if (provision.status === "running") return provision.adminUrl;
  throw new PostgresClusterError(provision.status === "failed" ? provision.kind : "binaries-not-found", provision.reason);
}

/**
 * A describe block that needs PostgreSQL: it skips, saying why, when the binaries are absent, and
 * fails, saying why, when they were required (REDLINE_REQUIRE_POSTGRES=1) or the cluster did not start.
 */
export function describePostgres(name: string, body: () => void): void {
  if (provision.status === "running") {
    describe(name, body);
  } else if (provision.status === "absent") {
    describe.skip(`${name} (skipped: ${provision.reason})`, body);
  } else {
    describe(name, () => {
      it("has the PostgreSQL it needs", () => {
        postgresAdminUrl();
      });
      describe.skip("(not run without PostgreSQL)", body);
    });
  }
}

export interface PostgresDatabaseOptions {
  /** The start of the database's name; a random suffix follows. */
  prefix?: string;
  /** A fresh database for each test rather than one for the enclosing block. */
  perTest?: boolean;
}

/** A fresh database on the run's cluster for the enclosing block (or each of its tests), dropped after. */
export function withPostgresDatabase(options: PostgresDatabaseOptions = {}): { readonly url: string } {
  let url: string | undefined;
  const [before, after] = options.perTest ? [beforeEach, afterEach] : [beforeAll, afterAll];
  before(async () => {
    url = await createPostgresDatabase(postgresAdminUrl(), options.prefix);
  });
  after(async () => {
    if (url === undefined) return;
    const created = url;
    url = undefined;
    await dropPostgresDatabase(postgresAdminUrl(), created);
  });
  return {
    get url(): string {
      if (url === undefined) throw new Error("withPostgresDatabase: the database exists only while its block's tests run");
      return url;
    },
  };
}

/** The migrated database test databases copy when the suite runs on PostgreSQL. */
export function postgresTemplate(): string {
  if (provision.status === "running" && provision.template !== undefined) return provision.template;
  throw new PostgresClusterError("database-failed", "no migrated template database: the suite runs on PostgreSQL only with REDLINE_TEST_DATABASE=postgres");
}

/** The run's cluster as a handle to make and drop databases on; only inside a describePostgres block. */
export function runPostgresCluster(): { adminUrl: string; createDatabase(prefix?: string): Promise<string>; dropDatabase(url: string): Promise<void> } {
  const adminUrl = postgresAdminUrl();
  return {
    adminUrl,
    createDatabase: (prefix) => createPostgresDatabase(adminUrl, prefix),
    dropDatabase: (url) => dropPostgresDatabase(adminUrl, url),
  };
}
