/** Which database the tests run on and what they may assume of PostgreSQL, from the environment (no test-runner imports). */
import { z } from "zod";

const settingsSchema = z.object({
  /** The database the suite's tests run on: `npm test` on SQLite, `npm run test:postgres` on the run's PostgreSQL cluster. */
  REDLINE_TEST_DATABASE: z.enum(["sqlite", "postgres"]).default("sqlite"),
  /** Set by CI: tests that need PostgreSQL fail, saying why, instead of skipping. */
  REDLINE_REQUIRE_POSTGRES: z.enum(["0", "1", ""]).default("0"),
  /** A folder holding initdb and pg_ctl; unset, the newest /usr/lib/postgresql/<version>/bin, else PATH. */
  REDLINE_POSTGRES_BIN: z.preprocess((v) => (v === "" ? undefined : v), z.string().optional()),
});

const settings = settingsSchema.parse(process.env);

export type TestDatabaseDialect = "sqlite" | "postgres";

export const testDatabaseDialect: TestDatabaseDialect = settings.REDLINE_TEST_DATABASE;

/** What asked for PostgreSQL by name, if anything: missing binaries are then a failure, not a skip. */
export const postgresRequiredBy: string | undefined =
  settings.REDLINE_REQUIRE_POSTGRES === "1"
    ? "REDLINE_REQUIRE_POSTGRES=1"
    : testDatabaseDialect === "postgres"
      ? "REDLINE_TEST_DATABASE=postgres"
      : settings.REDLINE_POSTGRES_BIN !== undefined
        ? "REDLINE_POSTGRES_BIN"
        : undefined;

export const postgresBinOverride: string | undefined = settings.REDLINE_POSTGRES_BIN;
