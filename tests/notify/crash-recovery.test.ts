import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Webhook } from "standardwebhooks";
import { afterAll, describe, expect, it } from "vitest";
import { closeStore, openStore } from "@/db/client";
import { versionDetailSchema } from "@/lib/api/schemas";
import { startSimulator } from "@/simulator/server";
import { countRows, freshLocation, queryRows } from "@/tests/support/database";
import { testDatabaseDialect } from "@/tests/support/test-database-settings";
import { watchProcess } from "@/tests/support/watch-process";
import { startReceiver } from "@/tests/support/webhook-receiver";
import { REDLINE_BUNDLE } from "@/tests/support/redline-bundle";

const ROOT = path.resolve(__dirname, "..", "..");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "redline-notify-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const ENV = { ...process.env, REDLINE_ALLOW_PRIVATE_URLS: "1", REDLINE_HOST_INTERVAL_MS: "0", REDLINE_PUBLIC_URL: "http://redline.test" };

function start(args: string[]) {
  return spawn(process.execPath, [REDLINE_BUNDLE, ...args], { cwd: ROOT, env: ENV, stdio: ["ignore", "pipe", "pipe"] });
}

async function redline(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const watched = watchProcess(start(args));
  const exit = await watched.exited;
  return { code: exit.code, stdout: watched.stdout.join("\n"), stderr: watched.stderr.join("\n") };
}

describe(`the outbox across a crash (${testDatabaseDialect})`, () => {
  it("delivers the versions a poller recorded before it was killed, once the notifier runs", async () => {
    const sim = await startSimulator({ vendors: [{ slug: "acme", family: "statuspage" }], acceleration: 0, start: "2026-03-02T00:00:00.000Z", seed: 3 });
    const receiver = await startReceiver();
    const db = await freshLocation(dir, { name: "crash" });
    try {
      const added = await redline(["vendors", "add", "--slug", "acme", "--name", "Acme", "--platform", "statuspage", "--url", sim.vendor("acme").url, "--db", db]);
      expect(added.code, added.stderr).toBe(0);
      const sub = await redline(["subscriptions", "add", "--target", `${receiver.url}/hook`, "--vendor", "acme", "--json", "--db", db]);
      expect(sub.code, sub.stderr).toBe(0);
      const created = JSON.parse(sub.stdout) as Record<string, string>;
      expect(Object.keys(created).sort()).toEqual(["id", "secret"]);
      expect(created.secret).toMatch(/^whsec_/);

      // The poller records versions (and their outbox rows, in the same transaction), then dies before any delivery.
      const pollerProcess = start(["poll", "--db", db]);
      const poller = watchProcess(pollerProcess);
      await poller.until("a poll that recorded versions", () => poller.stdout.some((l) => / acme: ok .*new versions/.test(l)));
      pollerProcess.kill("SIGKILL");
      await poller.exited;
      const check = await openStore(db, { migrate: false });
      const outbox = await queryRows<{ id: string; seq: number }>(check, "SELECT provider_id AS id, seq FROM outbox_versions ORDER BY id");
      const attempts = await countRows(check, "delivery_attempts");
      await closeStore(check);
      expect(outbox.length).toBeGreaterThan(0);
      expect(attempts).toBe(0);
      expect(receiver.received).toHaveLength(0);

      const notified = await redline(["notify", "--once", "--db", db]);
      expect(notified.code, notified.stderr).toBe(0);
      const carried = receiver.received.flatMap((r) => {
        const payload = new Webhook(created.secret ?? "").verify(r.body, r.headers) as { type: string; data: unknown };
        const changes = payload.type === "incident.changed.batch" ? (payload.data as { changes: unknown[] }).changes : [payload.data];
        return changes.map((c) => {
          const v = versionDetailSchema.parse(c);
          return { id: v.incident.id, seq: v.seq };
        });
      });
      expect(carried.sort((a, b) => (a.id === b.id ? a.seq - b.seq : a.id < b.id ? -1 : 1))).toEqual(outbox.sort((a, b) => (a.id === b.id ? a.seq - b.seq : a.id < b.id ? -1 : 1)));
    } finally {
      await receiver.close();
      await sim.stop();
    }
  });
});
