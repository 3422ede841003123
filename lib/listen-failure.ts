/**
 * The exit code of a process that cannot run as it is configured (EX_CONFIG of sysexits.h): its
 * supervisor does not restart it, since the same settings would fail the same way.
 */
export const EXIT_CONFIG = 78;

/**
 * What to tell the operator when listening on HOST:PORT failed with `error`, naming the variable to
 * change; null for any other error, or a failure to listen that is not about the address.
 */
export function describeListenFailure(error: unknown, host: string, port: number): string | null {
  if (!(error instanceof Error) || !("syscall" in error) || error.syscall !== "listen") return null;
  switch ("code" in error ? error.code : undefined) {
    case "EADDRINUSE":
      return `port ${port} on ${host} is in use (another Redline?); set PORT to another port`;
    case "EACCES":
      return `port ${port} on ${host} is not open to this user (ports below 1024 need privileges); set PORT to another port`;
    case "EADDRNOTAVAIL":
      return `${host} is not an address of this machine, so port ${port} cannot be listened on there; set HOST to one that is`;
    default:
      return null;
  }
}
