import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": fileURLToPath(new URL(".", import.meta.url)) } },
  test: {
    include: ["tests/**/*.test.ts"],
    environment: "node",
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: "forks",
    // One throwaway PostgreSQL cluster per run, when its binaries are installed (tests/support/postgres.ts).
    globalSetup: ["tests/support/postgres-global-setup.ts"],
  },
});
