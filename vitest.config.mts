import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = fileURLToPath(new URL(".", import.meta.url));

/**
 * The test files whose database is the suite's (REDLINE_TEST_DATABASE): they, or the support
 * module they read rows with or start the app with (e2e-app), name it. The PostgreSQL pass runs these; the others test no
 * database (parsers, rendering) or open a SQLite file of their own, and the SQLite pass runs them.
 */
function dialectFiles(): string[] {
  const support = /@\/tests\/(support\/(database|version-rows|outbound-messages|test-database-settings)|e2e\/support\/e2e-app)"/;
  const files = fs.readdirSync(path.join(root, "tests"), { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".test.ts"));
  return files.filter((f) => support.test(fs.readFileSync(path.join(root, "tests", f), "utf8"))).map((f) => `tests/${f}`);
}

export default defineConfig({
  resolve: { alias: { "@": root } },
  test: {
    include: process.env.REDLINE_TEST_DATABASE === "postgres" ? dialectFiles() : ["tests/**/*.test.ts"],
    environment: "node",
    // A net for a hang, not a budget: on a machine busy with other work a corpus import takes minutes.
    testTimeout: 600_000,
    hookTimeout: 600_000,
    pool: "forks",
    // Two test files at a time even on two cores (vitest's default there is one): most files spend
    // their time waiting on processes of their own (servers, pollers, Chromium, PostgreSQL), so a
    // second file fills the idle core. A CI run took 36 minutes one file at a time, 27 two at a time.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    // One throwaway PostgreSQL cluster per run, when its binaries are installed (tests/support/postgres.ts).
    // And the CLI bundle the tests' commands run, fresh (tests/support/redline-bundle.ts).
    globalSetup: ["tests/support/postgres-global-setup.ts", "tests/support/cli-bundle-setup.ts"],
  },
});
