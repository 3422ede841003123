import { describe, expect, it } from "vitest";
import { parseStartOptions, StartUsageError } from "@/scripts/start-options";

function refusal(args: string[]): string {
  try {
    parseStartOptions(args);
  } catch (error) {
    if (error instanceof StartUsageError) return error.message;
    throw error;
  }
  throw new Error(`${args.join(" ")} was accepted`);
}

describe("npm start's arguments", () => {
  it("run every role, with the catalog, when none is named", () => {
    expect(parseStartOptions([])).toEqual({ roles: ["web", "poller", "notify"], catalog: true, help: false });
  });

  it("take a role as --role x or --role=x, several comma-separated or repeated, each once in a fixed order", () => {
    expect(parseStartOptions(["--role", "poller"]).roles).toEqual(["poller"]);
    expect(parseStartOptions(["--role=web"]).roles).toEqual(["web"]);
    expect(parseStartOptions(["--role", "notify,web"]).roles).toEqual(["web", "notify"]);
    expect(parseStartOptions(["--role", "poller", "--role=web", "--role", "poller"]).roles).toEqual(["web", "poller"]);
  });

  it("keep --no-catalog beside roles, and ask for the usage with --help or -h", () => {
    expect(parseStartOptions(["--no-catalog", "--role", "poller"])).toEqual({ roles: ["poller"], catalog: false, help: false });
    expect(parseStartOptions(["--help"]).help).toBe(true);
    expect(parseStartOptions(["-h", "--role", "web"]).help).toBe(true);
  });

  it("take the database every role uses with --db, a file or a postgres:// URL", () => {
    expect(parseStartOptions(["--db", "postgres://redline@db:5432/archive", "--role", "poller"])).toEqual({ roles: ["poller"], catalog: true, help: false, db: "postgres://redline@db:5432/archive" });
    expect(parseStartOptions(["--db=data/other.db"]).db).toBe("data/other.db");
    expect(parseStartOptions([]).db).toBeUndefined();
  });

  it("refuse an unknown or empty role, naming the roles there are", () => {
    expect(refusal(["--role", "cook"])).toBe('unknown role "cook": the roles are web, poller, notify');
    expect(refusal(["--role", "web,,poller"])).toBe('unknown role "": the roles are web, poller, notify');
    expect(refusal(["--role"])).toMatch(/^Option '--role <value>' argument missing; usage: npm start -- \[--role web\|poller\|notify/);
  });

  it("refuse an unknown flag or a stray word instead of running every role", () => {
    expect(refusal(["--rol", "web"])).toMatch(/^Unknown option '--rol'; usage: /);
    expect(refusal(["web"])).toMatch(/^Unexpected argument 'web'/);
  });
});
