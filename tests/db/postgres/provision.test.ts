import { describe, expect, it } from "vitest";
import { PostgresClusterError } from "@/tests/support/postgres-cluster-error";
import { provisionAfterFailure } from "@/tests/support/postgres-provision";

const notFound = new PostgresClusterError("binaries-not-found", "PostgreSQL binaries not found: apt-get install -y postgresql");

describe("what test files are told when the run's cluster did not start", () => {
  it("missing binaries skip PostgreSQL's tests, saying what to install", () => {
    expect(provisionAfterFailure(notFound, undefined)).toEqual({ status: "absent", reason: notFound.message });
  });

  it("missing binaries fail them when REDLINE_REQUIRE_POSTGRES=1 asked for PostgreSQL, naming it", () => {
    expect(provisionAfterFailure(notFound, "REDLINE_REQUIRE_POSTGRES=1")).toEqual({
      status: "failed",
      kind: "binaries-not-found",
      reason: `REDLINE_REQUIRE_POSTGRES=1 asks for PostgreSQL, but ${notFound.message}`,
    });
  });

  it("a cluster that was there but did not start fails them even when nothing required it", () => {
    const initdb = new PostgresClusterError("initdb-failed", "initdb failed: no space left on device");
    expect(provisionAfterFailure(initdb, undefined)).toEqual({
      status: "failed",
      kind: "initdb-failed",
      reason: "the test PostgreSQL cluster did not start: initdb failed: no space left on device",
    });
    expect(provisionAfterFailure(new Error("spawn EACCES"), undefined)).toMatchObject({ status: "failed", kind: "start-failed" });
  });
});
