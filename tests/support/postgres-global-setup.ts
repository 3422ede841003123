import type { TestProject } from "vitest/node";
import { startPostgresCluster, type PostgresCluster } from "@/tests/support/postgres-cluster";
import { provisionAfterFailure } from "@/tests/support/postgres-provision";
import { closeStore, openStore } from "@/db/client";
import { createPostgresDatabase } from "@/tests/support/postgres-databases";
import { postgresRequiredBy, testDatabaseDialect } from "@/tests/support/test-database-settings";

/** One throwaway PostgreSQL cluster for the whole run, when its binaries are here; stopped at teardown. */
export default async function setupPostgres(project: TestProject): Promise<() => Promise<void>> {
  let cluster: PostgresCluster | undefined;
  try {
    cluster = await startPostgresCluster();
    const template = testDatabaseDialect === "postgres" ? await migratedTemplate(cluster.adminUrl) : undefined;
    project.provide("postgres", { status: "running", adminUrl: cluster.adminUrl, ...(template ? { template } : {}) });
  } catch (error) {
    project.provide("postgres", provisionAfterFailure(error, postgresRequiredBy));
  }
  return async () => {
    await cluster?.stop();
  };
}

/** With the suite on PostgreSQL, each test's database is a copy of one migrated once: migrating each would cost seconds. */
async function migratedTemplate(adminUrl: string): Promise<string> {
  const url = await createPostgresDatabase(adminUrl, "redline_template");
  await closeStore(await openStore(url));
  return decodeURIComponent(new URL(url).pathname.slice(1));
}
