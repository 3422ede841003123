import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { closeDatabase, openDatabase } from "@/db/client";
import { createReadinessProbe, type Readiness } from "@/db/readiness";
import { answerHealth } from "@/server/health";

let server: http.Server | undefined;
const dirs: string[] = [];

afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
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

function tempDb(migrate: boolean): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "redline-health-"));
  dirs.push(dir);
  const file = path.join(dir, "redline.db");
  closeDatabase(openDatabase(file, { migrate }));
  return file;
}

describe("health endpoints", () => {
  it("/healthz answers without asking the database, even when it is unreachable", async () => {
    const base = await serve(() => {
      throw new Error("the database must not be consulted for liveness");
    });
    const response = await fetch(`${base}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: "ok" });
  });

  it("/readyz is ready with every migration applied, and says why not otherwise", async () => {
    const ready = createReadinessProbe(tempDb(true));
    const behind = createReadinessProbe(tempDb(false));
    const missing = createReadinessProbe(path.join(os.tmpdir(), "redline-health-no-such-dir", "none.db"));
    try {
      expect(await ready.check()).toMatchObject({ ready: true });
      expect(await behind.check()).toMatchObject({ ready: false, detail: expect.stringMatching(/migrations applied|no such table/) });
      expect(await missing.check()).toMatchObject({ ready: false, detail: expect.stringMatching(/^database: /) });
      const base = await serve(() => behind.check());
      const response = await fetch(`${base}/readyz`);
      expect(response.status).toBe(503);
      expect(response.headers.get("cache-control")).toBe("no-store");
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
    } finally {
      for (const probe of [ready, behind, missing]) probe.close();
    }
  });
});
