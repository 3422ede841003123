import type { ChildProcess } from "node:child_process";

export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/**
 * A child process's output, line by line as it comes, and waits on what it shows: a test
 * synchronizes on a line printed (or anything else checked when a line comes), never on time.
 * A wait the child can no longer satisfy, because it exited, fails with its output.
 */
export function watchProcess(child: ChildProcess) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const waiters: Array<() => void> = [];
  let exit: ProcessExit | null = null;
  const notify = () => {
    for (const waiter of [...waiters]) waiter();
  };
  const follow = (stream: NodeJS.ReadableStream | null, lines: string[]) => {
    let rest = "";
    stream?.on("data", (chunk: Buffer) => {
      const parts = (rest + chunk.toString("utf8")).split("\n");
      rest = parts.pop() ?? "";
      lines.push(...parts);
      notify();
    });
  };
  follow(child.stdout, stdout);
  follow(child.stderr, stderr);
  const exited = new Promise<ProcessExit>((resolve) =>
    child.on("close", (code, signal) => {
      exit = { code, signal };
      notify();
      resolve(exit);
    }),
  );
  const until = (what: string, check: () => boolean): Promise<void> =>
    new Promise((resolve, reject) => {
      const waiter = () => {
        if (!check() && exit === null) return;
        waiters.splice(waiters.indexOf(waiter), 1);
        if (check()) resolve();
        else reject(new Error(`the process exited (${JSON.stringify(exit)}) before ${what}; it wrote:\n${[...stdout, ...stderr].join("\n")}`));
      };
      waiters.push(waiter);
      waiter();
    });
  return { stdout, stderr, exited, until };
}
