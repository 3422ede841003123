import { coarser, isFiner, isInferred, type Statement } from "@/lib/derive/source-profile";

/** keep: the merged value stands; refine: take the new value silently; change: take it and report it. */
export type StatementVerdict = "keep" | "refine" | "change";

export interface StatementInput<V> {
  /** The merged value and how it was stated (undefined: never stated). */
  current: V;
  currentAt: Statement | undefined;
  /** What the source states now, and how. */
  value: V;
  at: Statement;
  /** What the same source stated last time (undefined: it never stated this value). */
  previous: V | undefined;
  same: (a: V, b: V, at: Statement) => boolean;
}

/**
 * What one source's statement of a value does to the merged value. A source changes a value only
 * with news of its own (a first statement, or one that differs from what it said last time), so
 * two sources that state a value differently never flap; a coarser first statement never overrides
 * a finer value, an inference never overrides a statement, and a finer statement of the same value
 * (or a statement of an inferred one) refines it without being a change.
 */
export function judgeStatement<V>(input: StatementInput<V>): StatementVerdict {
  const { current, currentAt, value, at, previous, same } = input;
  if (currentAt === undefined) return "refine";
  if (same(value, current, coarser(at, currentAt))) return isFiner(at, currentAt) ? "refine" : "keep";
  if (isInferred(at) && !isInferred(currentAt)) return "keep";
  if (!isInferred(at) && isInferred(currentAt)) return "refine";
  const news = previous === undefined || !same(previous, value, at);
  if (!news) return "keep";
  if (previous === undefined && current !== null && value !== null && isFiner(currentAt, at)) return "keep";
  return "change";
}
