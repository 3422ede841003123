import { type CatchUpClock, catchUpTime } from "@/lib/catch-up-clock";

/**
 * The simulated clock: simulated time = anchor + real time elapsed since the anchor × acceleration.
 * Acceleration 1 is real time, 3600 an hour per second, 0 a frozen clock (for tests). With
 * `notAfterRealTime` it stops at real time and runs at real time from there (the demo's clock).
 */
export class SimClock {
  private anchorSimulatedMs: number;
  private anchorRealMs: number;

  constructor(
    startMs: number,
    readonly acceleration: number,
    private readonly realNow: () => number = Date.now,
    readonly notAfterRealTime = false,
  ) {
    if (!Number.isFinite(startMs)) throw new RangeError(`simulator: start time is not a time: ${startMs}`);
    if (!Number.isFinite(acceleration) || acceleration < 0) {
      throw new RangeError(`simulator: acceleration must be a finite number >= 0, got ${acceleration}`);
    }
    this.anchorSimulatedMs = startMs;
    this.anchorRealMs = realNow();
  }

  nowMs(): number {
    const real = this.realNow();
    if (this.notAfterRealTime) return catchUpTime(this.anchor(), real);
    return Math.floor(this.anchorSimulatedMs + (real - this.anchorRealMs) * this.acceleration);
  }

  /** What another process needs to keep the same time (lib/catch-up-clock.ts). */
  anchor(): CatchUpClock {
    return { startMs: this.anchorSimulatedMs, anchorRealMs: this.anchorRealMs, acceleration: this.acceleration };
  }

  now(): string {
    return new Date(this.nowMs()).toISOString();
  }

  /** Jump to a simulated time; the clock keeps running from there at the same acceleration. */
  set(time: string | number): void {
    const ms = typeof time === "number" ? time : Date.parse(time);
    if (!Number.isFinite(ms)) throw new RangeError(`simulator: not a time: ${String(time)}`);
    this.anchorSimulatedMs = ms;
    this.anchorRealMs = this.realNow();
  }
}
