import { z } from "zod";
import { toUtcIso } from "@/lib/time";

/**
 * The moment the page as it was is asked for (`--at`, `?at=`): an ISO 8601 time, UTC when it
 * gives no offset (a time picker sends none, and every time Redline shows is UTC). A moment
 * still to come is refused: the archive knows nothing of it, and without one the answer is now.
 */
export const statusAtSchema = z
  .string()
  .max(64, "at most 64 characters")
  .transform((value, ctx) => {
    try {
      return toUtcIso(value, { assumeOffsetMinutes: 0 });
    } catch {
      ctx.addIssue({ code: "custom", message: `expected an ISO 8601 time such as 2025-05-01T14:05:00Z, not ${JSON.stringify(value.slice(0, 40))}` });
      return z.NEVER;
    }
  })
  .refine((iso) => Date.parse(iso) <= Date.now(), "a moment still to come: leave it out for the page as it is now")
  .describe("The moment, as an ISO 8601 time (UTC without an offset); without it, now.");

/** The moment parsed, or why it cannot be. */
export function parseStatusAt(value: string): { at: string } | { error: string } {
  const parsed = statusAtSchema.safeParse(value);
  return parsed.success ? { at: parsed.data } : { error: parsed.error.issues[0]?.message ?? "not a time" };
}
