import type { TestProject } from "vitest/node";
import { startPostgresCluster, type PostgresCluster } from "@/tests/support/postgres-cluster";
import { provisionAfterFailure } from "@/tests/support/postgres-provision";
import { postgresRequiredBy } from "@/tests/support/test-database-settings";

/** One throwaway PostgreSQL cluster for the whole run, when its binaries are here; stopped at teardown. */
export default async function setupPostgres(project: TestProject): Promise<() => Promise<void>> {
  let cluster: PostgresCluster | undefined;
  try {
    cluster = await startPostgresCluster();
    project.provide("postgres", { status: "running", adminUrl: cluster.adminUrl });
  } catch (error) {
    project.provide("postgres", provisionAfterFailure(error, postgresRequiredBy));
  }
  return async () => {
    await cluster?.stop();
  };
}
