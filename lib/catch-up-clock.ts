/**
 * The demo's clock: simulated time starts in the past and runs accelerated until it reaches real
 * time, then runs at real time. Never ahead of real time, so no page shows an incident resolving
 * "in 4 days". The simulator serves by it and the poller observes by it, so every span Redline
 * derives ("rewritten 2 hours after it was posted") is a span of the simulated world.
 */
export interface CatchUpClock {
  /** Simulated time at the anchor. */
  startMs: number;
  /** Real time at the anchor. */
  anchorRealMs: number;
  acceleration: number;
}

export class CatchUpClockError extends Error {
  readonly kind = "catch-up-clock";
}

export function catchUpTime(clock: CatchUpClock, realMs: number): number {
  return Math.min(realMs, Math.floor(clock.startMs + (realMs - clock.anchorRealMs) * clock.acceleration));
}

/** When the clock reaches real time, in real milliseconds; the anchor itself when it started there. */
export function catchUpAt(clock: CatchUpClock): number {
  const behind = clock.anchorRealMs - clock.startMs;
  if (behind <= 0 || clock.acceleration <= 1) return behind <= 0 ? clock.anchorRealMs : Number.POSITIVE_INFINITY;
  return clock.anchorRealMs + behind / (clock.acceleration - 1);
}

/**
 * The real instant at which the clock read `simulatedMs`: catchUpTime's inverse (to the
 * millisecond), so a time stamped by the clock can be set beside the scheduler's real ones.
 */
export function realTimeOf(clock: CatchUpClock, simulatedMs: number): number {
  if (clock.acceleration <= 0 || simulatedMs >= catchUpAt(clock)) return simulatedMs;
  return Math.round(clock.anchorRealMs + (simulatedMs - clock.startMs) / clock.acceleration);
}

/** "startMs,anchorRealMs,acceleration", as the demo hands it to the poller in REDLINE_DEMO_CLOCK. */
export function formatCatchUpClock(clock: CatchUpClock): string {
  return `${clock.startMs},${clock.anchorRealMs},${clock.acceleration}`;
}

export function parseCatchUpClock(text: string): CatchUpClock {
  const match = /^(\d+),(\d+),(\d+(?:\.\d+)?)$/.exec(text.trim());
  if (!match) throw new CatchUpClockError(`not a demo clock (startMs,anchorRealMs,acceleration): ${JSON.stringify(text.slice(0, 64))}`);
  return { startMs: Number(match[1]), anchorRealMs: Number(match[2]), acceleration: Number(match[3]) };
}
