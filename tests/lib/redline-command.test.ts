import { describe, expect, it } from "vitest";
import { readEnv } from "@/lib/env";
import { redlineCommand } from "@/lib/redline-command";

const ADD = "watchlists add <name> --vendor <slug>";
const ROOT = "/home/ops/redline";
const envOf = (vars: Record<string, string>) => readEnv({ NODE_ENV: "test", REDLINE_DATABASE_URL: "", ...vars });

describe("redlineCommand", () => {
  it("names the demo's archive with --db, from where npm run runs, so the command reaches the archive the page shows", () => {
    expect(redlineCommand(ADD, envOf({ REDLINE_DB: `${ROOT}/data/demo.db` }), ROOT)).toBe(`npm run redline -- ${ADD} --db data/demo.db`);
  });

  it("adds nothing for the default archive, however it is written", () => {
    for (const vars of [{} as Record<string, string>, { REDLINE_DB: "data/redline.db" }, { REDLINE_DB: "./data/redline.db" }, { REDLINE_DB: `${ROOT}/data/redline.db` }]) {
      expect(redlineCommand(ADD, envOf(vars), `${ROOT}/`)).toBe(`npm run redline -- ${ADD}`);
    }
  });

  it("names a file outside the checkout by its whole path, quoted for the shell where it needs to be", () => {
    expect(redlineCommand("vendors list", envOf({ REDLINE_DB: "/var/lib/redline/archive.db" }), ROOT)).toBe("npm run redline -- vendors list --db /var/lib/redline/archive.db");
    expect(redlineCommand("vendors list", envOf({ REDLINE_DB: "/srv/ops' archive.db" }), ROOT)).toBe("npm run redline -- vendors list --db '/srv/ops'\\'' archive.db'");
  });

  it("never prints a PostgreSQL URL, which holds the password", () => {
    const env = envOf({ REDLINE_DATABASE_URL: "postgres://redline:s3cret@db:5432/redline", REDLINE_DB: `${ROOT}/data/demo.db` });
    expect(redlineCommand(ADD, env, ROOT)).toBe(`npm run redline -- ${ADD}`);
  });
});
