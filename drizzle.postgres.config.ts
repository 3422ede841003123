import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  schema: "./db/schema/postgres.ts",
  out: "./db/migrations-postgres",
});
