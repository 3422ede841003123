import { describe, expect, it } from "vitest";
import { databaseLocation, readEnv as readProcessEnv } from "@/lib/env";

const readEnv = (vars: Record<string, string>) => readProcessEnv({ NODE_ENV: "test", ...vars });

describe("where the archive lives", () => {
  it("is the SQLite file REDLINE_DB unless REDLINE_DATABASE_URL names a PostgreSQL database", () => {
    expect(databaseLocation(readEnv({}))).toBe("data/redline.db");
    expect(databaseLocation(readEnv({ REDLINE_DB: "/srv/redline.db", REDLINE_DATABASE_URL: "" }))).toBe("/srv/redline.db");
    expect(databaseLocation(readEnv({ REDLINE_DB: "/srv/redline.db", REDLINE_DATABASE_URL: "postgres://redline:pw@db:5432/archive" }))).toBe("postgres://redline:pw@db:5432/archive");
    expect(databaseLocation(readEnv({ REDLINE_DATABASE_URL: "postgresql://redline@/archive?host=/run/postgresql" }))).toBe("postgresql://redline@/archive?host=/run/postgresql");
  });

  it("refuses a REDLINE_DATABASE_URL that is not a postgres:// URL, without repeating it", () => {
    expect(() => readEnv({ REDLINE_DATABASE_URL: "mysql://root:hunter2@db/archive" })).toThrow(/^invalid environment: REDLINE_DATABASE_URL: use postgres:\/\//);
    expect(() => readEnv({ REDLINE_DATABASE_URL: "mysql://root:hunter2@db/archive" })).not.toThrow(/hunter2/);
  });
});
