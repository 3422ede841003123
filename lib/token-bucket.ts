/**
 * A token bucket with continuous refill: `ratePerSecond` sustained, up to `burst` at once. A
 * refused request still spends (the bucket goes into debt), so a client that keeps hammering
 * stays refused; the debt is floored at `maxDebt`, so once it backs off it recovers within
 * (burst + maxDebt) / rate seconds instead of never.
 */
export interface BucketSettings {
  ratePerSecond: number;
  burst: number;
  /** How far below empty refused requests can push the bucket (default: one burst). */
  maxDebt?: number;
}

export interface TakeResult {
  allowed: boolean;
  /** Whole tokens left after this request (0 when in debt). */
  remaining: number;
  /** Seconds until a refused request would be allowed; 0 when allowed. */
  retryAfterSeconds: number;
  /** Seconds until the bucket is full again. */
  fullInSeconds: number;
}

export class TokenBucket {
  private tokens: number;
  private updatedMs: number;

  constructor(
    private readonly settings: BucketSettings,
    nowMs: number,
  ) {
    this.tokens = settings.burst;
    this.updatedMs = nowMs;
  }

  private refill(nowMs: number): void {
    const elapsed = Math.max(0, nowMs - this.updatedMs) / 1000;
    this.tokens = Math.min(this.settings.burst, this.tokens + elapsed * this.settings.ratePerSecond);
    this.updatedMs = nowMs;
  }

  /** Whether the bucket is full: an idle client's bucket can be forgotten. */
  isFull(nowMs: number): boolean {
    this.refill(nowMs);
    return this.tokens >= this.settings.burst;
  }

  /** Whether `cost` tokens are there now, without spending them. */
  has(nowMs: number, cost = 1): boolean {
    this.refill(nowMs);
    return this.tokens >= cost;
  }

  /** Seconds until `cost` tokens are there. */
  secondsUntil(nowMs: number, cost = 1): number {
    this.refill(nowMs);
    return Math.max(0, Math.ceil((cost - this.tokens) / this.settings.ratePerSecond));
  }

  take(nowMs: number, cost = 1): TakeResult {
    this.refill(nowMs);
    const { ratePerSecond, burst } = this.settings;
    const allowed = this.tokens >= cost;
    this.tokens = allowed ? this.tokens - cost : Math.max(-(this.settings.maxDebt ?? burst), this.tokens - cost);
    return {
      allowed,
      remaining: Math.max(0, Math.floor(this.tokens)),
      retryAfterSeconds: allowed ? 0 : Math.ceil((cost - this.tokens) / ratePerSecond),
      fullInSeconds: Math.ceil((burst - this.tokens) / ratePerSecond),
    };
  }
}

/**
 * One bucket per key (a client, a webhook source), created full on first use. Idle keys whose
 * bucket has refilled are forgotten, and at most `maxKeys` are kept, so a flood of addresses
 * cannot grow it without bound.
 */
export class KeyedBuckets {
  private readonly buckets = new Map<string, TokenBucket>();

  constructor(
    private readonly settings: BucketSettings,
    private readonly maxKeys = 100_000,
  ) {}

  take(key: string, nowMs: number, cost = 1): TakeResult {
    let bucket = this.buckets.get(key);
    if (bucket) {
      this.buckets.delete(key);
    } else {
      if (this.buckets.size >= this.maxKeys) this.sweep(nowMs);
      bucket = new TokenBucket(this.settings, nowMs);
    }
    this.buckets.set(key, bucket);
    return bucket.take(nowMs, cost);
  }

  /** Seconds until `key` has `cost` tokens, without spending or keeping anything: 0 for a key never seen. */
  secondsUntil(key: string, nowMs: number, cost = 1): number {
    return this.buckets.get(key)?.secondsUntil(nowMs, cost) ?? 0;
  }

  get size(): number {
    return this.buckets.size;
  }

  /** Forget full buckets; if still too many, the least recently used. */
  private sweep(nowMs: number): void {
    for (const [key, bucket] of this.buckets) if (bucket.isFull(nowMs)) this.buckets.delete(key);
    for (const key of this.buckets.keys()) {
      if (this.buckets.size < this.maxKeys) break;
      this.buckets.delete(key);
    }
  }
}
