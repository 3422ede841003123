import { randomUUID } from "node:crypto";
import { hostname } from "node:os";

/** How a poller holds the vendors it claims (db/operations/poll-leases.ts). */
export interface LeasePolicy {
  /** Who this poller is: unique per process, readable in the database (host, pid, a random tail). */
  owner: string;
  leaseMs: number;
  /** Renewed this often while held: a third of the lease, so two renewals can fail before it lapses. */
  renewEveryMs: number;
}

export function pollerIdentity(): string {
  return `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
}

export function leasePolicy(leaseSeconds: number, owner: string = pollerIdentity()): LeasePolicy {
  const leaseMs = leaseSeconds * 1000;
  return { owner, leaseMs, renewEveryMs: Math.max(1_000, Math.floor(leaseMs / 3)) };
}
