import { type CaptureKey, compareCaptureKeys } from "@/lib/derive/capture-key";
import { DERIVATION_KEY, DERIVATION_VERSION, type DerivedWith, isStale } from "@/lib/derive/derivation-version";

/**
 * Where a capture falls among what is recorded, decided from what the record stage loaded: it
 * repeats one recorded before, continues its source's run, splits a run, comes late (before the
 * capture applied last), or waits for a rebuild. Pure: db/record/record.ts loads the context and
 * carries the decisions out, in one transaction.
 */

/**
 * Consecutive observations of one source with the same outcome and content are one capture row,
 * a run: its first observation (observedAt, which capture order and the identity go by), its last
 * and how many.
 */
export interface RunOf<Outcome extends string = string> {
  source: string;
  observedAt: string;
  lastObservedAt: string;
  hash: string;
  outcome: Outcome;
  error: string | null;
}

/** One observation of a source: when, what content, and how it read. */
export interface ObservationOf<Outcome extends string = string> {
  source: string;
  observedAt: string;
  hash: string;
  outcome: Outcome;
  error: string | null;
}

/** The source's run at or before the observation, and whether it is the source's latest. */
export interface RunFound<R> {
  run: R;
  latest: boolean;
}

export type Placement<R extends RunOf> =
  /** Already recorded: at that time, or inside a run of the same content (a re-import). */
  | { kind: "duplicate"; outcome: R["outcome"]; error: string | null }
  /** The source's latest run, of the same outcome and content: the observation may continue it. */
  | { kind: "continues"; run: R }
  /** A row of its own; `split` is a run it falls inside, cut to its first observation, its last becoming a run of its own. */
  | { kind: "new"; split: R | null };

function sameContent(run: RunOf, o: Pick<ObservationOf, "hash" | "outcome" | "error">): boolean {
  return run.hash === o.hash && run.outcome === o.outcome && run.error === o.error;
}

/**
 * Where an observation goes. One of other content inside a run of its source splits the run: the
 * observations between are not kept one by one, so the run's first stays before it and its last
 * becomes a run of its own after it.
 */
export function placeObservation<R extends RunOf>(found: RunFound<R> | null, o: ObservationOf): Placement<R> {
  if (!found) return { kind: "new", split: null };
  const { run, latest } = found;
  if (o.observedAt <= run.lastObservedAt) {
    if (sameContent(run, o)) return { kind: "duplicate", outcome: run.outcome, error: run.error };
    return { kind: "new", split: o.observedAt > run.observedAt && o.observedAt < run.lastObservedAt ? run : null };
  }
  return latest && sameContent(run, o) ? { kind: "continues", run } : { kind: "new", split: null };
}

/** How a recorded observation went, when this observation of this content is already recorded (exactly, or inside a run). */
export function recordedBefore<R extends RunOf>(exact: R | undefined, found: RunFound<R> | null, o: Pick<ObservationOf, "observedAt" | "hash">): { outcome: R["outcome"]; error: string | null } | undefined {
  if (exact) return { outcome: exact.outcome, error: exact.error };
  if (found && found.run.hash === o.hash && o.observedAt <= found.run.lastObservedAt) return { outcome: found.run.outcome, error: found.run.error };
  return undefined;
}

/** Who last read the standing of the vendor's sources: a capture of `by` at `at`. */
export interface StandingsRead {
  at: string | null;
  by: string | null;
}

/** The state of a vendor's running re-derivation job, if any. */
export type JobStatus = "queued" | "building" | "swapping" | string | undefined;

/**
 * Whether a run of content-serving observations (good or not-modified) may be continued. A capture
 * of another source whose derivation read this source's standing saw the run end where it then
 * ended, and re-derivation must see the same. While the vendor's history is being rebuilt aside,
 * new observations get rows of their own, which the rebuild copies.
 */
export function mayContinueServingRun(run: Pick<RunOf, "source" | "lastObservedAt">, read: StandingsRead | undefined, job: JobStatus): boolean {
  if (read?.at && (read.at > run.lastObservedAt || (read.at === run.lastObservedAt && read.by !== run.source))) return false;
  return job !== "building" && job !== "swapping";
}

/**
 * Whether an observation that is not applied to the history (not-modified, failed, invalid)
 * continues its run: failures contribute nothing to derivation; a not-modified run says when the
 * source last served, so it follows the rule for serving runs.
 */
export function continuesUnapplied(run: RunOf, read: StandingsRead | undefined, job: JobStatus): boolean {
  return run.outcome !== "not-modified" || mayContinueServingRun(run, read, job);
}

/**
 * Whether a good capture comes before the end of what was applied last (the last observation of
 * that capture's run): it is then recorded and applied in order by a background replay. Judged
 * before a split can shorten that run.
 */
export function isLate(applied: CaptureKey | null, appliedLastObservedAt: string | null, key: CaptureKey): boolean {
  return applied !== null && compareCaptureKeys(key, { ...applied, observedAt: appliedLastObservedAt ?? applied.observedAt }) < 0;
}

/** Whether the run is the capture applied last: only then can a good snapshot continue it. */
export function isApplied(run: CaptureKey, applied: CaptureKey | null): boolean {
  return applied !== null && compareCaptureKeys(run, applied) === 0;
}

/** What recording a good capture of a platform does to the vendor's derivation marker. */
export type DerivationNote =
  /** Store this marker (a first capture, or the first of a platform, under current parsers). */
  | { kind: "mark"; derivedWith: DerivedWith }
  /** The history was derived with older parsers or derivation: rebuild it in the background (never here). */
  | { kind: "rebuild" }
  | null;

/**
 * After a parser or derivation upgrade the vendor's stored history is rebuilt in the background;
 * a vendor's first capture just notes the parsers that read it, as does the first of a platform.
 */
export function derivationNote(
  stored: DerivedWith,
  platform: { name: string; parserVersion: number },
  parserVersionOf: (platform: string) => number | undefined,
  hadHistory: boolean,
  jobActive: boolean,
): DerivationNote {
  if (!hadHistory) return { kind: "mark", derivedWith: { ...stored, [DERIVATION_KEY]: DERIVATION_VERSION, [platform.name]: platform.parserVersion } };
  const stale = isStale(stored, parserVersionOf);
  if (stored[platform.name] === undefined && !stale) return { kind: "mark", derivedWith: { ...stored, [platform.name]: platform.parserVersion } };
  return stale && !jobActive ? { kind: "rebuild" } : null;
}

/** A vendor's stored derivation marker, read leniently: a corrupt one only forces a rebuild, which is always safe. */
export function parseDerivedWith(text: string | null): DerivedWith {
  if (!text) return {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === "object") {
      return Object.fromEntries(Object.entries(parsed).filter((e): e is [string, number] => typeof e[1] === "number"));
    }
  } catch {
    // Unreadable: treated as derived with nothing known.
  }
  return {};
}
