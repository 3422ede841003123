import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { closeStore, openStore } from "@/db/client";
import { createReadinessProbe, type Readiness } from "@/db/operations/readiness";
import { answerHealth } from "@/server/health";
import { countRows, freshLocation, runSql } from "@/tests/support/database";
import { testDatabaseDialect } from "@/tests/support/test-database-settings";

let server: http.Server | undefined;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "redline-health-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

async function serve(readiness: () => Promise<Readiness>): Promise<string> {
  server = http.createServer((req, res) => {
    answerHealth(req, res, readiness).then(
      (answered) => {
        if (!answered) res.writeHead(404).end();
      },
      (error: unknown) => res.writeHead(500).end(String(error)),
    );
  });
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", () => resolve()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const MIGRATIONS_TABLE = testDatabaseDialect === "sqlite" ? "__drizzle_migrations" : "drizzle.__drizzle_migrations";

/** An archive on the suite's database, made as a first start makes it: every migration applied, or none. */
async function archive(migrated: boolean): Promise<string> {
  const location = await freshLocation(dir, { name: "health", migrated });
  await closeStore(await openStore(location, { migrate: migrated }));
  return location;
}

/** An archive a release behind: its last migration not yet applied. */
async function archiveBehind(): Promise<{ location: string; applied: number }> {
  const location = await archive(true);
  const db = await openStore(location, { migrate: false });
  try {
    const last = `SELECT max(created_at) FROM ${MIGRATIONS_TABLE}`;
    expect(await runSql(db, `DELETE FROM ${MIGRATIONS_TABLE} WHERE created_at = (${last})`)).toBe(1);
    return { location, applied: await countRows(db, MIGRATIONS_TABLE) };
  } finally {
    await closeStore(db);
  }
}

/** Where no archive is: a folder that does not exist, or a database the server does not have. */
async function nowhere(): Promise<string> {
  if (testDatabaseDialect === "sqlite") return path.join(dir, "no-such-dir", "none.db");
  const url = new URL(await freshLocation(dir, { name: "health", migrated: false }));
  url.pathname = "/redline_health_no_such_database";
  return url.toString();
}

describe(`health endpoints (${testDatabaseDialect})`, () => {
  it("/healthz answers without asking the database, even when it is unreachable", async () => {
    const base = await serve(() => {
      throw new Error("the database must not be consulted for liveness");
    });
    const response = await fetch(`${base}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: "ok" });
  });

  it("/readyz is ready with every migration applied, and says why not otherwise", async () => {
    const behindArchive = await archiveBehind();
    const ready = createReadinessProbe(await archive(true));
    const behind = createReadinessProbe(behindArchive.location);
    const empty = createReadinessProbe(await archive(false));
    const missing = createReadinessProbe(await nowhere());
    try {
      expect(await ready.check()).toMatchObject({ ready: true, detail: `database reachable, ${behindArchive.applied + 1} migrations applied` });
      expect(await behind.check()).toEqual({ ready: false, detail: `${behindArchive.applied} of ${behindArchive.applied + 1} migrations applied` });
      expect(await empty.check()).toMatchObject({ ready: false, detail: expect.stringMatching(/^database: .*(no such table|does not exist)/) });
      expect(await missing.check()).toMatchObject({ ready: false, detail: expect.stringMatching(/^database: /) });
      const base = await serve(() => behind.check());
      const response = await fetch(`${base}/readyz`);
      expect(response.status).toBe(503);
      expect(response.headers.get("cache-control")).toBe("no-store");
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
    } finally {
      for (const probe of [ready, behind, empty, missing]) probe.close();
    }
  });
});
