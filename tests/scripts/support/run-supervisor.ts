/**
 * The supervisor as its own process, for tests that signal it: `node --import tsx
 * run-supervisor.ts '<json>'` supervises the children in the JSON with its restart policy, prints
 * each event as a JSON line on stdout, and exits with the supervisor's code.
 */
import type { SupervisorEvent } from "@/db/operations/supervisor-events";
import { type ChildSpec, type RestartPolicy, supervise } from "@/scripts/supervise";

interface Config {
  children: ChildSpec[];
  policy: Partial<RestartPolicy>;
  /** Every record fails, as when the database is locked. */
  failRecording?: boolean;
  /** Each "exited" takes a while to write, as a write on another pooled connection can. */
  slowExits?: boolean;
}

const config = JSON.parse(process.argv[2] ?? "{}") as Config;
const record = async (event: SupervisorEvent) => {
  if (config.failRecording) throw new Error("database is locked");
  if (config.slowExits && event.event === "exited") await new Promise((resolve) => setTimeout(resolve, 200));
  process.stdout.write(`${JSON.stringify(event)}\n`);
};
void supervise(config.children, { cwd: process.cwd(), policy: config.policy, record }).then((code) => {
  process.exitCode = code;
});
