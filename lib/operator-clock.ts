/**
 * The operator page on one clock. In the demo, captures are stamped by the catch-up clock
 * (lib/catch-up-clock.ts) while the scheduler, the supervisor and the jobs write real time: the
 * page shows every time as real time, a capture's as the real instant the poller took it, so a
 * failure's "first seen" and "last seen" are comparable and no age reads days off.
 */
import { type CatchUpClock, catchUpAt, catchUpTime, realTimeOf } from "@/lib/catch-up-clock";
import { formatDuration, formatUtcMinute } from "@/lib/format";

export interface OperatorClock {
  /** A capture's stamp (observed_at and the times derived from it) as the real instant it stands for. */
  captured(iso: string | null): string | null;
  /** What the operator should know of the clocks; null outside the demo. */
  note: string | null;
}

const REAL_CLOCK: OperatorClock = { captured: (iso) => iso, note: null };

/** The operator page's clock for a demo clock (null: none, every time is already real). */
export function operatorClockOf(demo: CatchUpClock | null, nowMs: number): OperatorClock {
  if (demo === null) return REAL_CLOCK;
  const reachedMs = catchUpAt(demo);
  const simulated = catchUpTime(demo, nowMs);
  const reached = formatUtcMinute(new Date(reachedMs).toISOString());
  const state = Number.isFinite(reachedMs) && nowMs >= reachedMs
    ? `it reached real time at ${reached} and has run at real time since`
    : `now ${formatUtcMinute(new Date(simulated).toISOString())}, ${formatDuration(nowMs - simulated)} behind real time${Number.isFinite(reachedMs) ? ` until ${reached}` : ""}`;
  return {
    captured: (iso) => {
      const ms = iso === null ? Number.NaN : Date.parse(iso);
      return Number.isNaN(ms) ? iso : new Date(realTimeOf(demo, ms)).toISOString();
    },
    note: `Demo: the archive's pages show simulated time (${state}). This page shows real time throughout: a capture at the real instant the poller took it.`,
  };
}
