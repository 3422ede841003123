import { type ChildProcess, spawn } from "node:child_process";
import type { SupervisorEvent, SupervisorEventKind } from "@/db/operations/supervisor-events";
import { errorMessage } from "@/lib/error-message";
import { formatDuration } from "@/lib/format";
import { EXIT_CONFIG } from "@/lib/listen-failure";

export interface ChildSpec {
  name: string;
  command: string;
  args: string[];
  env?: Record<string, string>;
}

export interface RestartPolicy {
  /** The wait before the first restart; it doubles with each crash in a row, up to maxDelayMs. */
  firstDelayMs: number;
  maxDelayMs: number;
  /** A child that stayed up this long had recovered: its next crash waits firstDelayMs again. */
  stableAfterMs: number;
  crashLimit: number;
  crashWindowMs: number;
}

/**
 * A child that crashes five times within two minutes is broken (bad configuration, a database it
 * cannot open), not unlucky: restarting it forever would hide that, so the supervisor gives up and
 * exits non-zero for the service manager and the operator to see.
 */
export const RESTART_POLICY: RestartPolicy = { firstDelayMs: 1_000, maxDelayMs: 30_000, stableAfterMs: 60_000, crashLimit: 5, crashWindowMs: 120_000 };

export interface SuperviseOptions {
  cwd: string;
  policy?: Partial<RestartPolicy>;
  /** Where each event is kept (the supervisor_events table); a failure to keep one is logged. */
  record?: (event: SupervisorEvent) => Promise<void>;
  log?: (line: string) => void;
}

/** How long to wait before restarting a child that crashed after being up `uptimeMs`. */
export function nextRestartDelay(policy: RestartPolicy, previousDelayMs: number | null, uptimeMs: number): number {
  if (previousDelayMs === null || uptimeMs >= policy.stableAfterMs) return policy.firstDelayMs;
  return Math.min(policy.maxDelayMs, previousDelayMs * 2);
}

function span(ms: number): string {
  return ms < 60_000 ? `${Number((ms / 1000).toPrecision(2))} s` : formatDuration(ms);
}

/**
 * Run processes together and keep them running: one that exits is restarted after a backoff,
 * and the others go on. Only a child crashing over and over, or one exiting EXIT_CONFIG (it
 * cannot run as configured), makes the supervisor give up, stop the others and exit non-zero.
 * SIGINT/SIGTERM stop them all cleanly, with no restart, and resolve 0.
 */
export function supervise(specs: readonly ChildSpec[], options: SuperviseOptions): Promise<number> {
  const policy = { ...RESTART_POLICY, ...options.policy };
  const log = options.log ?? console.error;
  return new Promise((resolve) => {
    const running = new Map<string, ChildProcess>();
    const restarts = new Map<string, NodeJS.Timeout>();
    const history = new Map<string, { delayMs: number | null; crashes: number[] }>();
    let exitCode: number | null = null;

    // One write at a time, in the order seen: on a pooled database (PostgreSQL) two writes in flight
    // could take their ids out of order, and the operator page reads "exited" before "restarting" by id.
    let recorded = Promise.resolve();
    const record = (name: string, event: SupervisorEventKind, detail: string) => {
      const write = options.record;
      if (!write) return;
      const at = new Date().toISOString();
      recorded = recorded.then(() =>
        write({ at, process: name, event, detail }).catch((error: unknown) => {
          log(`redline: unable to record that ${name} ${event} (${detail}): ${errorMessage(error)}`);
        }),
      );
    };

    const handlers = (["SIGINT", "SIGTERM"] as const).map((signal) => {
      const handler = () => {
        if (exitCode !== null) return;
        log(`redline: ${signal}: stopping`);
        stopAll(signal, 0);
      };
      process.on(signal, handler);
      return { signal, handler };
    });

    const finishWhenStopped = () => {
      if (exitCode === null || running.size > 0) return;
      for (const { signal, handler } of handlers) process.off(signal, handler);
      // The last exits are recorded before the caller closes the database.
      const code = exitCode;
      void recorded.then(() => resolve(code));
    };

    function stopAll(signal: NodeJS.Signals, code: number): void {
      exitCode = code;
      for (const timer of restarts.values()) clearTimeout(timer);
      restarts.clear();
      for (const child of running.values()) if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      finishWhenStopped();
    }

    function crashed(spec: ChildSpec, how: string, code: number | null, uptimeMs: number): void {
      if (code === EXIT_CONFIG) {
        record(spec.name, "gave-up", "it cannot run as configured");
        log(`redline: ${spec.name} exited (${how}): it cannot run as configured, so restarting it would not help; stopping the rest`);
        stopAll("SIGTERM", EXIT_CONFIG);
        return;
      }
      const past = history.get(spec.name) ?? { delayMs: null, crashes: [] };
      const now = Date.now();
      const crashes = [...past.crashes.filter((at) => now - at < policy.crashWindowMs), now];
      if (crashes.length >= policy.crashLimit) {
        record(spec.name, "gave-up", `${crashes.length} crashes within ${span(policy.crashWindowMs)}`);
        log(`redline: ${spec.name} exited (${how}): ${crashes.length} crashes within ${span(policy.crashWindowMs)}; giving up and stopping the rest`);
        stopAll("SIGTERM", code !== null && code !== 0 ? code : 1);
        return;
      }
      const delayMs = nextRestartDelay(policy, past.delayMs, uptimeMs);
      history.set(spec.name, { delayMs, crashes });
      record(spec.name, "restarting", `in ${span(delayMs)}`);
      log(`redline: ${spec.name} exited (${how}); restarting in ${span(delayMs)}`);
      restarts.set(
        spec.name,
        setTimeout(() => {
          restarts.delete(spec.name);
          start(spec);
        }, delayMs),
      );
    }

    function start(spec: ChildSpec): void {
      const startedAt = Date.now();
      const child = spawn(spec.command, spec.args, { cwd: options.cwd, stdio: "inherit", env: { ...process.env, ...spec.env } });
      running.set(spec.name, child);
      let ended = false;
      const end = (how: string, code: number | null) => {
        if (ended) return;
        ended = true;
        running.delete(spec.name);
        const uptimeMs = Date.now() - startedAt;
        record(spec.name, "exited", `${how}, up ${span(uptimeMs)}`);
        if (exitCode !== null) finishWhenStopped();
        else crashed(spec, how, code, uptimeMs);
      };
      child.once("exit", (code, signal) => end(signal ?? `code ${code ?? "?"}`, code));
      child.on("error", (error) => {
        // Without a pid it never ran, and no exit event may follow.
        if (child.pid === undefined) end(`could not start: ${error.message}`, null);
        else log(`redline: ${spec.name}: ${error.message}`);
      });
      if (child.pid === undefined) return;
      record(spec.name, "started", `pid ${child.pid}`);
      log(`redline: ${spec.name} started (pid ${child.pid})`);
    }

    for (const spec of specs) start(spec);
  });
}
