import { type ChildProcess, spawn } from "node:child_process";

export interface ChildSpec {
  name: string;
  command: string;
  args: string[];
  env?: Record<string, string>;
}

/**
 * Run processes together: when one exits, the others are stopped and the supervisor exits with
 * an error, so nothing keeps running silently half-alive. SIGINT/SIGTERM stop them all cleanly.
 */
export function supervise(specs: readonly ChildSpec[], cwd: string): Promise<number> {
  return new Promise((resolve) => {
    const children = new Map<string, ChildProcess>();
    let stopping = false;
    let exitCode = 0;
    const stopAll = (signal: NodeJS.Signals) => {
      for (const child of children.values()) if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    };
    for (const spec of specs) {
      const child = spawn(spec.command, spec.args, { cwd, stdio: "inherit", env: { ...process.env, ...spec.env } });
      children.set(spec.name, child);
      child.on("exit", (code, signal) => {
        children.delete(spec.name);
        if (!stopping) {
          stopping = true;
          exitCode = code === 0 ? 1 : (code ?? 1);
          console.error(`redline: ${spec.name} exited (${signal ?? `code ${code}`}); stopping the rest`);
          stopAll("SIGTERM");
        }
        if (children.size === 0) resolve(exitCode);
      });
    }
    for (const signal of ["SIGINT", "SIGTERM"] as const) {
      process.on(signal, () => {
        if (stopping) return;
        stopping = true;
        console.error(`redline: ${signal}: stopping`);
        stopAll(signal);
      });
    }
  });
}
