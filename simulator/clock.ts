/**
 * The simulated clock: simulated time = anchor + real time elapsed since the anchor × acceleration.
 * Acceleration 1 is real time, 3600 an hour per second, 0 a frozen clock (for tests).
 */
export class SimClock {
  private anchorSimulatedMs: number;
  private anchorRealMs: number;

  constructor(
    startMs: number,
    readonly acceleration: number,
    private readonly realNow: () => number = Date.now,
  ) {
    if (!Number.isFinite(startMs)) throw new RangeError(`simulator: start time is not a time: ${startMs}`);
    if (!Number.isFinite(acceleration) || acceleration < 0) {
      throw new RangeError(`simulator: acceleration must be a finite number >= 0, got ${acceleration}`);
    }
    this.anchorSimulatedMs = startMs;
    this.anchorRealMs = realNow();
  }

  nowMs(): number {
    return Math.floor(this.anchorSimulatedMs + (this.realNow() - this.anchorRealMs) * this.acceleration);
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
