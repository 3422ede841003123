/**
 * What unchanged polls cost the database: one vendor polled 1,000 times while its endpoint serves
 * the same body, once answering with an ETag (the poller's conditional GET gets 304s) and once
 * without validators (a 200 with the same body each time). The endpoint is served here; the polls
 * run in a child process through the poller's own API, as `poll` runs them.
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { bytesOnDisk } from "@/bench/redline-cli";
import { closeDatabase, openDatabase } from "@/db/client";
import { readEnv } from "@/lib/env";
import { createPollDeps, createScheduler } from "@/scrapers/poller/create-poller";

export const POLL_ENV = { REDLINE_ALLOW_PRIVATE_URLS: "1", REDLINE_HOST_INTERVAL_MS: "0" };

export interface UnchangedPollResult {
  polls: number;
  bytesBefore: number;
  bytesAfter: number;
  /** The polls' own time, without the process's start-up. */
  seconds: number;
}

/** Serves `body` at /etag/… with an ETag (and 304 to a matching If-None-Match) and at /plain/… with no validators. */
export async function serveSameBody(body: Buffer): Promise<{ base: string; close(): Promise<void> }> {
  const etag = `"${createHash("sha256").update(body).digest("hex").slice(0, 16)}"`;
  const server = http.createServer((req, res) => {
    if (req.url?.startsWith("/etag/")) {
      if (req.headers["if-none-match"] === etag) {
        res.writeHead(304, { ETag: etag }).end();
        return;
      }
      res.writeHead(200, { "Content-Type": "application/json", ETag: etag }).end(body);
      return;
    }
    res.writeHead(200, { "Content-Type": "application/json" }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { base: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

async function pollChild(dbFile: string, slug: string, polls: number): Promise<void> {
  const env = readEnv({ ...process.env, ...POLL_ENV });
  const db = openDatabase(dbFile);
  try {
    const scheduler = createScheduler(createPollDeps(db, env), env, { onlySlug: slug });
    const started = performance.now();
    for (let i = 0; i < polls; i += 1) {
      const round = await scheduler.runOnce(slug);
      if (round.ok !== 1) throw new Error(`bench: poll ${i + 1} of ${slug} failed: ${round.firstError ?? "unknown"}`);
    }
    process.stdout.write(`${JSON.stringify({ polls, seconds: (performance.now() - started) / 1000 })}\n`);
  } finally {
    closeDatabase(db);
  }
}

function runPollChild(dbFile: string, slug: string, polls: number): Promise<{ polls: number; seconds: number }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ["--import", "tsx", __filename, "--poll-child", dbFile, slug, String(polls)], {
      stdio: ["ignore", "pipe", "inherit"],
      cwd: path.resolve(__dirname, ".."),
    });
    let out = "";
    proc.stdout.on("data", (d: Buffer) => { out += d.toString(); });
    proc.on("exit", (code) => (code === 0 ? resolve(JSON.parse(out.trim().split("\n").at(-1) ?? "{}") as { polls: number; seconds: number }) : reject(new Error(`bench: polls of ${slug} exited ${code}`))));
  });
}

/** Polls a vendor whose first poll is recorded (`dbFile` closed) `polls` more times: the bytes on disk before and after. */
export async function pollUnchanged(dbFile: string, slug: string, polls: number): Promise<UnchangedPollResult> {
  const bytesBefore = bytesOnDisk(dbFile);
  const done = await runPollChild(dbFile, slug, polls);
  return { polls: done.polls, bytesBefore, bytesAfter: bytesOnDisk(dbFile), seconds: done.seconds };
}

const childFlag = process.argv.indexOf("--poll-child");
if (childFlag >= 0) {
  const [dbFile = "", slug = "", polls = "0"] = process.argv.slice(childFlag + 1);
  pollChild(dbFile, slug, Number(polls)).catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
