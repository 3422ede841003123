import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { SupervisorEvent } from "@/db/operations/supervisor-events";
import { EXIT_CONFIG } from "@/lib/listen-failure";
import { type ChildSpec, nextRestartDelay, RESTART_POLICY, type RestartPolicy } from "@/scripts/supervise";
import { watchProcess } from "@/tests/support/watch-process";

const ROOT = path.resolve(__dirname, "..", "..");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "redline-supervise-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Fast enough for a test, with room for no more crashes than the test makes. */
const FAST: Partial<RestartPolicy> = { firstDelayMs: 10, maxDelayMs: 40, stableAfterMs: 600_000, crashLimit: 5, crashWindowMs: 600_000 };

function node(name: string, code: string, env: Record<string, string> = {}): ChildSpec {
  return { name, command: process.execPath, args: ["-e", code], env };
}
const lives = (name: string) => node(name, "setInterval(() => {}, 1000)");
const dies = (name: string) => node(name, "process.exit(3)");
/** Exits 3 the first time (leaving a mark), then stays up. */
function diesOnce(name: string): ChildSpec {
  const mark = path.join(dir, `${name}-${Math.random().toString(36).slice(2)}`);
  return node(name, "const fs = require('fs'); if (!fs.existsSync(process.env.MARK)) { fs.writeFileSync(process.env.MARK, ''); process.exit(3); } setInterval(() => {}, 1000)", { MARK: mark });
}

/** The supervisor in a process of its own, with its events (its stdout) and log lines as they come. */
function runSupervisor(config: { children: ChildSpec[]; policy: Partial<RestartPolicy>; failRecording?: boolean; slowExits?: boolean }) {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "tests", "scripts", "support", "run-supervisor.ts"), JSON.stringify(config)], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const watched = watchProcess(child);
  const events = () => watched.stdout.map((line) => JSON.parse(line) as SupervisorEvent);
  const of = (name: string, event?: SupervisorEvent["event"]) => events().filter((e) => e.process === name && (event === undefined || e.event === event));
  return { child, events, log: watched.stderr, exited: watched.exited, until: watched.until, of };
}

function pidOf(event: SupervisorEvent | undefined): number {
  const pid = Number(/^pid (\d+)$/.exec(event?.detail ?? "")?.[1]);
  if (!Number.isInteger(pid)) throw new Error(`no pid in ${JSON.stringify(event)}`);
  return pid;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("supervise", () => {
  it("restarts a child that dies, and the others keep running", async () => {
    const run = runSupervisor({ children: [diesOnce("flaky"), lives("steady")], policy: FAST });
    await run.until("flaky started again", () => run.of("flaky", "started").length === 2 && run.of("steady", "started").length === 1);
    expect(run.of("flaky").map((e) => [e.event, e.detail?.replace(/\d+(\.\d+)?/g, "N")])).toEqual([
      ["started", "pid N"],
      ["exited", "code N, up N s"],
      ["restarting", "in N s"],
      ["started", "pid N"],
    ]);
    expect(run.log).toContain("redline: flaky exited (code 3); restarting in 0.01 s");
    expect(run.of("steady").map((e) => e.event)).toEqual(["started"]);
    expect(isAlive(pidOf(run.of("steady", "started")[0]))).toBe(true);
    expect(isAlive(pidOf(run.of("flaky", "started")[1]))).toBe(true);
    run.child.kill("SIGTERM");
    expect(await run.exited).toEqual({ code: 0, signal: null });
  });

  it("gives up after repeated crashes of one child, waiting longer before each restart, and stops the others with a non-zero exit", async () => {
    const run = runSupervisor({ children: [dies("broken"), lives("steady")], policy: { ...FAST, crashLimit: 4 } });
    const { code } = await run.exited;
    expect(code).toBe(3);
    expect(run.of("broken", "started")).toHaveLength(4);
    expect(run.of("broken", "restarting").map((e) => e.detail)).toEqual(["in 0.01 s", "in 0.02 s", "in 0.04 s"]);
    expect(run.of("broken", "gave-up").map((e) => e.detail)).toEqual(["4 crashes within 10 min"]);
    expect(run.log).toContain("redline: broken exited (code 3): 4 crashes within 10 min; giving up and stopping the rest");
    expect(run.of("steady").map((e) => [e.event, e.detail?.replace(/[\d.]+ s$/, "N s")])).toEqual([
      ["started", expect.stringMatching(/^pid \d+$/)],
      ["exited", "SIGTERM, up N s"],
    ]);
    expect(isAlive(pidOf(run.of("steady", "started")[0]))).toBe(false);
  });

  it("does not restart a child that exits EXIT_CONFIG (it cannot run as configured): it stops the others at once and exits with that code", async () => {
    const run = runSupervisor({ children: [node("web", `process.exit(${EXIT_CONFIG})`), lives("poller")], policy: FAST });
    const { code } = await run.exited;
    expect(code).toBe(EXIT_CONFIG);
    expect(run.of("web").map((e) => e.event)).toEqual(["started", "exited", "gave-up"]);
    expect(run.events().filter((e) => e.event === "restarting")).toEqual([]);
    expect(run.log).toContain(`redline: web exited (code ${EXIT_CONFIG}): it cannot run as configured, so restarting it would not help; stopping the rest`);
    expect(run.of("poller").map((e) => e.event)).toEqual(["started", "exited"]);
  });

  it("stops every child on SIGTERM, restarting none, and exits 0", async () => {
    const run = runSupervisor({ children: [lives("web"), lives("poller")], policy: FAST });
    await run.until("both started", () => run.of("web", "started").length === 1 && run.of("poller", "started").length === 1);
    const pids = [pidOf(run.of("web", "started")[0]), pidOf(run.of("poller", "started")[0])];
    run.child.kill("SIGTERM");
    expect(await run.exited).toEqual({ code: 0, signal: null });
    expect(run.log).toContain("redline: SIGTERM: stopping");
    expect(run.events().filter((e) => e.event === "restarting")).toEqual([]);
    expect(run.events().filter((e) => e.event === "exited").map((e) => e.process).sort()).toEqual(["poller", "web"]);
    expect(pids.map(isAlive)).toEqual([false, false]);
  });

  it("records its events in the order they happened, and the last exits before it exits, however long each write takes", async () => {
    const run = runSupervisor({ children: [diesOnce("flaky"), lives("steady")], policy: FAST, slowExits: true });
    await run.until("flaky started again", () => run.of("flaky", "started").length === 2);
    run.child.kill("SIGTERM");
    expect(await run.exited).toEqual({ code: 0, signal: null });
    expect(run.of("flaky").map((e) => e.event)).toEqual(["started", "exited", "restarting", "started", "exited"]);
    expect(run.of("steady").map((e) => e.event)).toEqual(["started", "exited"]);
  });

  it("goes on supervising when its events cannot be recorded, logging each that was lost", async () => {
    const run = runSupervisor({ children: [diesOnce("flaky")], policy: FAST, failRecording: true });
    // A lost event is logged when its write rejects, after the line of the event itself: wait for both.
    const lost = () => run.log.filter((l) => l.startsWith("redline: unable to record that flaky "));
    await run.until("flaky restarted, its four events lost", () => run.log.filter((l) => l.startsWith("redline: flaky started")).length === 2 && lost().length >= 4);
    expect(run.log).toContain("redline: unable to record that flaky restarting (in 0.01 s): database is locked");
    expect(lost()).toHaveLength(4);
    run.child.kill("SIGTERM");
    expect((await run.exited).code).toBe(0);
  });
});

describe("nextRestartDelay", () => {
  it("doubles the wait with each crash in a row up to 30 s, and starts over after a child stayed up a minute", () => {
    const delays: number[] = [];
    let delay: number | null = null;
    for (let crash = 0; crash < 7; crash += 1) delays.push((delay = nextRestartDelay(RESTART_POLICY, delay, 5_000)));
    expect(delays).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000]);
    expect(nextRestartDelay(RESTART_POLICY, 30_000, 60_000)).toBe(1_000);
  });
});
