import { describe, expect, it } from "vitest";
import { KeyedBuckets, TokenBucket } from "@/lib/token-bucket";

describe("token bucket", () => {
  it("allows a burst, then the sustained rate, refilling continuously", () => {
    const bucket = new TokenBucket({ ratePerSecond: 2, burst: 5 }, 0);
    const burst = Array.from({ length: 6 }, () => bucket.take(0).allowed);
    expect(burst).toEqual([true, true, true, true, true, false]);
    // Refused requests spent too: 500 ms later there is not yet a whole token.
    expect(bucket.take(500).allowed).toBe(false);
    const later = new TokenBucket({ ratePerSecond: 2, burst: 5 }, 0);
    for (let i = 0; i < 5; i += 1) later.take(0);
    expect(later.take(250).allowed).toBe(false);
    expect(later.take(1_000).allowed).toBe(true);
  });

  it("says when to retry and when it is full again", () => {
    const bucket = new TokenBucket({ ratePerSecond: 1, burst: 3 }, 0);
    for (let i = 0; i < 3; i += 1) bucket.take(0);
    const refused = bucket.take(0);
    expect(refused).toMatchObject({ allowed: false, remaining: 0, retryAfterSeconds: 2 });
    expect(refused.fullInSeconds).toBe(4);
  });

  it("floors the debt of a flood, so a client that backs off recovers promptly", () => {
    const bucket = new TokenBucket({ ratePerSecond: 10, burst: 10 }, 0);
    // Half a million refused requests in one second...
    for (let i = 0; i < 500_000; i += 1) bucket.take(500);
    // ...leave at most one burst of debt: two seconds of quiet and it is usable again.
    expect(bucket.take(3_000).allowed).toBe(true);
  });

  it("keeps one bucket per key: one client's flood does not spend another's", () => {
    const buckets = new KeyedBuckets({ ratePerSecond: 1, burst: 2 });
    for (let i = 0; i < 100; i += 1) buckets.take("flood", 0);
    expect(buckets.take("flood", 0).allowed).toBe(false);
    expect(buckets.take("calm", 0).allowed).toBe(true);
  });

  it("forgets idle keys instead of growing without bound", () => {
    const buckets = new KeyedBuckets({ ratePerSecond: 1, burst: 1 }, 1_000);
    for (let i = 0; i < 5_000; i += 1) buckets.take(`client-${i}`, i);
    expect(buckets.size).toBeLessThanOrEqual(1_000);
  });
});
