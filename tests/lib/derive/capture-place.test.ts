import { describe, expect, it } from "vitest";
import { continuesUnapplied, derivationNote, isApplied, isLate, mayContinueServingRun, parseDerivedWith, placeObservation, recordedBefore, type RunOf } from "@/lib/derive/capture-place";
import { DERIVATION_KEY, DERIVATION_VERSION } from "@/lib/derive/derivation-version";

const run = (over: Partial<RunOf> = {}): RunOf => ({ source: "feed", observedAt: "2026-01-01T10:00:00.000Z", lastObservedAt: "2026-01-01T12:00:00.000Z", hash: "a", outcome: "ok", error: null, ...over });
const seen = (observedAt: string, over: Partial<RunOf> = {}) => ({ source: "feed", observedAt, hash: "a", outcome: "ok", error: null, ...over });

describe("placing a capture among the recorded ones", () => {
  it("starts a row of its own when its source has none", () => {
    expect(placeObservation(null, seen("2026-01-01T10:00:00.000Z"))).toEqual({ kind: "new", split: null });
  });

  it("continues the source's latest run when the content and outcome are the same, and only then", () => {
    const latest = run();
    expect(placeObservation({ run: latest, latest: true }, seen("2026-01-01T13:00:00.000Z"))).toEqual({ kind: "continues", run: latest });
    expect(placeObservation({ run: latest, latest: true }, seen("2026-01-01T13:00:00.000Z", { hash: "b" }))).toEqual({ kind: "new", split: null });
    expect(placeObservation({ run: latest, latest: true }, seen("2026-01-01T13:00:00.000Z", { outcome: "failed", error: "boom" }))).toEqual({ kind: "new", split: null });
    expect(placeObservation({ run: latest, latest: false }, seen("2026-01-01T13:00:00.000Z"))).toEqual({ kind: "new", split: null });
  });

  it("is a duplicate inside a run of the same content, and splits a run of other content it falls inside", () => {
    const r = run();
    expect(placeObservation({ run: r, latest: true }, seen("2026-01-01T11:00:00.000Z"))).toEqual({ kind: "duplicate", outcome: "ok", error: null });
    expect(placeObservation({ run: r, latest: true }, seen("2026-01-01T11:00:00.000Z", { hash: "b" }))).toEqual({ kind: "new", split: r });
    // At the run's first or last observation there is nothing between to split.
    expect(placeObservation({ run: r, latest: true }, seen(r.lastObservedAt, { hash: "b" }))).toEqual({ kind: "new", split: null });
  });

  it("reports a capture recorded before, exactly or inside a run of the same content", () => {
    const r = run({ outcome: "invalid", error: "not JSON" });
    expect(recordedBefore(r, null, { observedAt: r.observedAt, hash: "a" })).toEqual({ outcome: "invalid", error: "not JSON" });
    expect(recordedBefore(undefined, { run: r, latest: true }, { observedAt: "2026-01-01T11:00:00.000Z", hash: "a" })).toEqual({ outcome: "invalid", error: "not JSON" });
    expect(recordedBefore(undefined, { run: r, latest: true }, { observedAt: "2026-01-01T11:00:00.000Z", hash: "b" })).toBeUndefined();
    expect(recordedBefore(undefined, { run: r, latest: true }, { observedAt: "2026-01-01T13:00:00.000Z", hash: "a" })).toBeUndefined();
  });
});

describe("continuing a run", () => {
  it("does not continue a serving run past a standing another source read, nor during a rebuild", () => {
    const r = run();
    expect(mayContinueServingRun(r, { at: null, by: null }, undefined)).toBe(true);
    expect(mayContinueServingRun(r, { at: "2026-01-01T12:30:00.000Z", by: "other" }, undefined)).toBe(false);
    expect(mayContinueServingRun(r, { at: r.lastObservedAt, by: "other" }, undefined)).toBe(false);
    expect(mayContinueServingRun(r, { at: r.lastObservedAt, by: "feed" }, undefined)).toBe(true);
    expect(mayContinueServingRun(r, undefined, "building")).toBe(false);
    expect(mayContinueServingRun(r, undefined, "swapping")).toBe(false);
    expect(mayContinueServingRun(r, undefined, "queued")).toBe(true);
  });

  it("continues a failed run whatever was read, a not-modified one only as a serving run", () => {
    const read = { at: "2026-01-01T12:30:00.000Z", by: "other" };
    expect(continuesUnapplied(run({ outcome: "failed", error: "500" }), read, "building")).toBe(true);
    expect(continuesUnapplied(run({ outcome: "not-modified" }), read, undefined)).toBe(false);
    expect(continuesUnapplied(run({ outcome: "not-modified" }), undefined, undefined)).toBe(true);
  });
});

describe("a late capture", () => {
  const applied = { observedAt: "2026-01-01T10:00:00.000Z", source: "feed", hash: "a" };

  it("is one before the last observation of the run applied last", () => {
    expect(isLate(null, null, { observedAt: "2020-01-01T00:00:00.000Z", source: "feed", hash: "x" })).toBe(false);
    expect(isLate(applied, "2026-01-01T12:00:00.000Z", { observedAt: "2026-01-01T11:00:00.000Z", source: "other", hash: "x" })).toBe(true);
    expect(isLate(applied, "2026-01-01T12:00:00.000Z", { observedAt: "2026-01-01T12:30:00.000Z", source: "other", hash: "x" })).toBe(false);
    expect(isLate(applied, null, { observedAt: "2026-01-01T09:00:00.000Z", source: "other", hash: "x" })).toBe(true);
  });

  it("knows the run applied last by its key", () => {
    expect(isApplied(applied, applied)).toBe(true);
    expect(isApplied({ ...applied, hash: "b" }, applied)).toBe(false);
    expect(isApplied(applied, null)).toBe(false);
  });
});

describe("the derivation marker", () => {
  const platform = { name: "statuspage", parserVersion: 3 };
  const current = (name: string) => (name === "statuspage" ? 3 : name === "atom" ? 2 : undefined);
  const fresh = { [DERIVATION_KEY]: DERIVATION_VERSION, statuspage: 3 };

  it("marks the parsers of a vendor's first capture, and a platform's first under current parsers", () => {
    expect(derivationNote({}, platform, current, false, false)).toEqual({ kind: "mark", derivedWith: fresh });
    expect(derivationNote({ [DERIVATION_KEY]: DERIVATION_VERSION, atom: 2 }, platform, current, true, false)).toEqual({ kind: "mark", derivedWith: { [DERIVATION_KEY]: DERIVATION_VERSION, atom: 2, statuspage: 3 } });
    expect(derivationNote(fresh, platform, current, true, false)).toBeNull();
  });

  it("asks for a rebuild when the history was derived with older parsers, unless a job is under way", () => {
    expect(derivationNote({ ...fresh, statuspage: 2 }, platform, current, true, false)).toEqual({ kind: "rebuild" });
    expect(derivationNote({ ...fresh, [DERIVATION_KEY]: DERIVATION_VERSION - 1 }, platform, current, true, false)).toEqual({ kind: "rebuild" });
    expect(derivationNote({ ...fresh, statuspage: 2 }, platform, current, true, true)).toBeNull();
  });

  it("reads a stored marker leniently: what is not a number is dropped, a corrupt one is empty", () => {
    expect(parseDerivedWith('{"statuspage":3,"x":"y"}')).toEqual({ statuspage: 3 });
    expect(parseDerivedWith("{not json")).toEqual({});
    expect(parseDerivedWith(null)).toEqual({});
  });
});
