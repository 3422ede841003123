/**
 * Where this process's web server listens, as links can name it (lib/link-origin.ts): recorded by
 * server/web-server.ts once it listens, read by the route handlers. Kept on globalThis because
 * Next.js bundles the handlers with copies of their own of every module: a module variable the
 * server set is not the one they would read.
 */
const KEY = Symbol.for("redline.listening-origin");

interface Holder {
  [KEY]?: string;
}

export function recordListeningOrigin(origin: string): void {
  (globalThis as Holder)[KEY] = origin;
}

export function listeningOrigin(): string | undefined {
  return (globalThis as Holder)[KEY];
}
