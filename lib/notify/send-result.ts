/** How one attempt to deliver a message went, as a sender reports it. */
export interface SendResult {
  /** delivered: done; retry: try again later; gone: the target says it will never accept (410); failed: this message cannot be sent. */
  outcome: "delivered" | "retry" | "gone" | "failed";
  /** HTTP status or SMTP reply code; null when none came. */
  statusCode: number | null;
  /** What the target asked for (Retry-After), in milliseconds. */
  retryAfterMs: number | null;
  error: string | null;
}
