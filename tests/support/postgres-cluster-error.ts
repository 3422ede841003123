export type PostgresClusterErrorKind =
  | "binaries-not-found"
  | "unquotable"
  | "initdb-failed"
  | "port-in-use"
  | "start-failed"
  | "database-failed";

/** What kept a throwaway test cluster from starting or serving, with the tool's own output in the message. */
export class PostgresClusterError extends Error {
  constructor(
    readonly kind: PostgresClusterErrorKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "PostgresClusterError";
  }
}
