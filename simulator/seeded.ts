/**
 * Deterministic choices for the simulator: every "random" value comes from a hash of the seed and
 * of what it is for, so the same (seed, vendor, cycle, role) always gives the same answer.
 */
import { createHash } from "node:crypto";

const BASE36 = "0123456789abcdefghijklmnopqrstuvwxyz";

function digestOf(parts: readonly (string | number)[]): Buffer {
  return createHash("sha256").update(parts.join("\u0000")).digest();
}

/** A stream of values from one hash (sfc32), for the many values a cycle needs: one hash per cycle. */
export class SeededStream {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(...parts: (string | number)[]) {
    const digest = digestOf(parts);
    [this.a, this.b, this.c, this.d] = [0, 4, 8, 12].map((i) => digest.readUInt32LE(i)) as [number, number, number, number];
  }

  /** A number in [0, 1). */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 2 ** 32;
  }

  integerBelow(bound: number): number {
    return Math.floor(this.next() * bound);
  }

  /** A lowercase alphanumeric code like Statuspage's incident and update ids. */
  code(length: number): string {
    let code = "";
    for (let i = 0; i < length; i += 1) code += BASE36[this.integerBelow(36)];
    return code;
  }

  pick<T>(list: readonly [T, ...T[]]): T {
    return list[this.integerBelow(list.length)] ?? list[0];
  }
}

/** One-off values are asked for again and again (each render of each endpoint): remembered. */
const MEMO_LIMIT = 100_000;
const memo = new Map<string, string | number>();

function remembered<T extends string | number>(key: string, compute: () => T): T {
  const known = memo.get(key);
  if (known !== undefined) return known as T;
  if (memo.size >= MEMO_LIMIT) memo.clear();
  const value = compute();
  memo.set(key, value);
  return value;
}

export function codeOf(length: number, ...parts: (string | number)[]): string {
  return remembered(`c${length}\u0001${parts.join("\u0000")}`, () => new SeededStream(...parts).code(length));
}

/** An integer in [0, bound). */
export function integerBelow(bound: number, ...parts: (string | number)[]): number {
  return remembered(`i${bound}\u0001${parts.join("\u0000")}`, () => new SeededStream(...parts).integerBelow(bound));
}

/** Hex digest of a body, for ETags and body comparisons. */
export function fingerprintOf(body: string | Uint8Array): string {
  return createHash("sha1").update(body).digest("hex");
}
