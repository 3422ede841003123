/** Listening on, and closing, the simulator's loopback servers. */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";

/** Listen on 127.0.0.1 (port 0: any free port); resolves with the port bound. */
export function listenLocal(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      server.off("error", reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** Close the server and every connection it holds, including hung and streaming ones. */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve();
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
