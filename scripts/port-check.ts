import net from "node:net";
import { describeListenFailure } from "@/lib/listen-failure";

/**
 * Why the web server could not listen on host:port, found by listening there for a moment, or
 * null when it could. Another process can still take the port before the web server listens: the
 * web server then exits with EXIT_CONFIG, which its supervisor does not restart.
 */
export function findListenProblem(host: string, port: number): Promise<string | null> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once("error", (error) => resolve(describeListenFailure(error, host, port)));
    probe.listen(port, host, () => probe.close(() => resolve(null)));
  });
}
