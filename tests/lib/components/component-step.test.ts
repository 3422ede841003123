import { describe, expect, it } from "vitest";
import type { ComponentGrid, ComponentReading } from "@/lib/components/component-grid";
import {
  type ComponentState,
  type ComponentStepInput,
  deriveComponentStep,
  NO_LONGER_AFFECTED,
  type OpenIncidentFacts,
  type RunningQuiet,
} from "@/lib/components/component-step";

const T0 = "2026-03-01T10:00:00.000Z";
const T1 = "2026-03-01T10:05:00.000Z";
const SUMMARY = "https://status.example.test/api/v2/summary.json";
const OTHER = "https://status.example.test/api/v2/components.json";

function reading(id: string, status: ComponentReading["status"], extra: Partial<ComponentReading> = {}): ComponentReading {
  return { id, name: id.toUpperCase(), groupId: null, isGroup: false, status, vendorStatus: status, vendorChangedAt: null, ...extra };
}

function grid(components: ComponentReading[], extra: Partial<ComponentGrid> = {}): ComponentGrid {
  return { components, unreadIds: [], blind: false, ...extra };
}

function state(id: string, status: ComponentState["status"], extra: Partial<ComponentState> = {}): ComponentState {
  return { componentId: id, name: id.toUpperCase(), groupId: null, isGroup: false, status, vendorStatus: status, inferred: false, source: SUMMARY, vendorChangedAt: null, since: T0, ...extra };
}

function input(extra: Partial<ComponentStepInput>): ComponentStepInput {
  return { source: SUMMARY, observedAt: T1, knowledge: "stated", grid: undefined, named: [], current: [], openIncidents: [], quiet: null, ...extra };
}

const running = (components: string[], extra: Partial<RunningQuiet> = {}): RunningQuiet => ({ components, from: T0, ...extra });

const incident = (impact: OpenIncidentFacts["impact"], components: string[], extra: Partial<OpenIncidentFacts> = {}): OpenIncidentFacts => ({
  kind: "incident", status: "investigating", impact, components: components.map((id) => ({ id, name: id.toUpperCase() })), ...extra,
});

describe("the component step", () => {
  it("starts a run for each component a first grid lists, from this capture", () => {
    const step = deriveComponentStep(input({ grid: grid([reading("a", "operational"), reading("b", "degraded")]), openIncidents: [incident("minor", ["b"])] }));
    expect(step.ended).toEqual([]);
    expect(step.started.map((s) => [s.componentId, s.status, s.since])).toEqual([["a", "operational", T1], ["b", "degraded", T1]]);
    expect(step.quiet).toBeNull();
  });

  it("changes nothing when the grid is as before, whatever the vendor's clock says", () => {
    const step = deriveComponentStep(input({ grid: grid([reading("a", "operational", { vendorChangedAt: T1 })]), current: [state("a", "operational")] }));
    expect(step).toEqual({ ended: [], started: [], quiet: null });
  });

  it("ends the run and starts another when the state changes", () => {
    const step = deriveComponentStep(input({ grid: grid([reading("a", "partial-outage")]), current: [state("a", "operational")], openIncidents: [incident("major", ["a"])] }));
    expect(step.ended).toEqual(["a"]);
    expect(step.started).toEqual([state("a", "partial-outage", { since: T1 })]);
  });

  it("starts a run for a rename but keeps when the state began", () => {
    const step = deriveComponentStep(input({ grid: grid([reading("a", "operational", { name: "Renamed" })]), current: [state("a", "operational")] }));
    expect(step.ended).toEqual(["a"]);
    expect(step.started[0]).toMatchObject({ name: "Renamed", since: T0 });
  });

  it("ends a component its source no longer lists, but not one another source stated", () => {
    const current = [state("a", "operational"), state("b", "operational"), state("c", "operational", { source: OTHER })];
    const step = deriveComponentStep(input({ grid: grid([reading("a", "operational")]), current }));
    expect(step.ended).toEqual(["b"]);
  });

  it("keeps a component listed but unreadable, and judges nothing gone when an id could not be read", () => {
    const current = [state("a", "operational"), state("b", "degraded")];
    expect(deriveComponentStep(input({ grid: grid([reading("a", "operational")], { unreadIds: ["b"] }), current })).ended).toEqual([]);
    expect(deriveComponentStep(input({ grid: grid([reading("a", "operational")], { blind: true }), current })).ended).toEqual([]);
  });

  it("changes nothing for a snapshot that states no grid", () => {
    const step = deriveComponentStep(input({ grid: undefined, current: [state("a", "operational")] }));
    expect(step).toEqual({ ended: [], started: [], quiet: null });
  });

  it("replaces an inferred state with a stated one, even the same", () => {
    const step = deriveComponentStep(input({ grid: grid([reading("a", "operational")]), current: [state("a", "operational", { inferred: true, vendorStatus: "no open incident names it" })] }));
    expect(step.ended).toEqual(["a"]);
    expect(step.started[0]).toMatchObject({ inferred: false, status: "operational" });
  });

  it("infers the worst state the open incidents naming a component put on it, operational for those named before", () => {
    const step = deriveComponentStep(input({
      knowledge: "inferred",
      named: [{ id: "x", name: "X" }, { id: "y", name: "Y" }, { id: "z", name: "Z" }],
      openIncidents: [incident("minor", ["x"]), incident("critical", ["x"]), incident("major", ["y"]), incident("none", ["z"])],
    }));
    expect(step.started.map((s) => [s.componentId, s.status, s.inferred])).toEqual([
      ["x", "major-outage", true], ["y", "partial-outage", true], ["z", "operational", true],
    ]);
    expect(step.quiet).toBeNull();
  });

  it("infers maintenance only once a maintenance has begun", () => {
    const scheduled = { kind: "maintenance" as const, status: "scheduled", impact: "maintenance" as const, components: [{ id: "m", name: "M" }] };
    expect(deriveComponentStep(input({ knowledge: "inferred", openIncidents: [scheduled] })).started).toEqual([]);
    expect(deriveComponentStep(input({ knowledge: "inferred", openIncidents: [{ ...scheduled, status: "in_progress" }] })).started[0]?.status).toBe("maintenance");
  });

  it("never infers over a stated grid", () => {
    const step = deriveComponentStep(input({ knowledge: "inferred", current: [state("a", "operational")], openIncidents: [incident("critical", ["a", "b"])] }));
    expect(step).toEqual({ ended: [], started: [], quiet: null });
  });

  it("starts a quiet degradation when a component is degraded while no incident is open, grows it, and ends it when an incident opens", () => {
    const start = deriveComponentStep(input({ grid: grid([reading("a", "degraded"), reading("b", "operational")]) }));
    expect(start.quiet).toEqual({ kind: "start", components: ["a"] });
    const grow = deriveComponentStep(input({ grid: grid([reading("a", "degraded"), reading("b", "major-outage")]), current: [state("a", "degraded"), state("b", "operational")], quiet: running(["a"]) }));
    expect(grow.quiet).toEqual({ kind: "grow", components: ["a", "b"] });
    const end = deriveComponentStep(input({ grid: undefined, current: [state("a", "degraded")], quiet: running(["a", "b"]), openIncidents: [incident("minor", [])] }));
    expect(end.quiet).toEqual({ kind: "end" });
  });

  it("drops a stretch that ends at the instant it began", () => {
    const open = { grid: undefined, current: [state("a", "degraded")], openIncidents: [incident("minor", [])] };
    expect(deriveComponentStep(input({ ...open, quiet: running(["a"], { from: T1 }) })).quiet).toEqual({ kind: "drop" });
  });

  it("starts none at a capture that shows no grid: an incident closing while its component is still shown degraded is no stretch until the grid shows it", () => {
    const closing = deriveComponentStep(input({ knowledge: undefined, grid: undefined, current: [state("a", "degraded")] }));
    expect(closing.quiet).toBeNull();
    const unchanged = deriveComponentStep(input({ source: OTHER, grid: grid([reading("a", "degraded")]), current: [state("a", "degraded", { source: OTHER })] }));
    expect(unchanged).toEqual({ ended: [], started: [], quiet: { kind: "start", components: ["a"] } });
  });

  it("counts neither maintenance, nor a word nobody knows, nor a group's own state, nor a scheduled maintenance as an incident", () => {
    const maintenance = { kind: "maintenance" as const, status: "in_progress", impact: "maintenance" as const, components: [] };
    const g = grid([reading("m", "maintenance"), reading("u", "unknown"), reading("g", "partial-outage", { isGroup: true })]);
    expect(deriveComponentStep(input({ grid: g })).quiet).toBeNull();
    expect(deriveComponentStep(input({ grid: grid([reading("a", "degraded")]), openIncidents: [maintenance] })).quiet).toEqual({ kind: "start", components: ["a"] });
  });
});

describe("the component step on a grid that lists only some components", () => {
  it("judges nothing gone from one page of a longer list", () => {
    const current = [state("a", "operational"), state("b", "degraded")];
    const step = deriveComponentStep(input({ grid: grid([reading("a", "partial-outage")], { partial: "page" }), current }));
    expect(step.ended).toEqual(["a"]);
    expect(step.started.map((s) => [s.componentId, s.status])).toEqual([["a", "partial-outage"]]);
  });

  it("puts a component a grid of affected components no longer lists back to operational, as inferred, keeping its name and group", () => {
    const current = [state("a", "partial-outage", { groupId: "API" }), state("b", "degraded")];
    const step = deriveComponentStep(input({ grid: grid([reading("b", "degraded")], { partial: "affected" }), current }));
    expect(step.ended).toEqual(["a"]);
    expect(step.started).toEqual([state("a", "operational", { groupId: "API", vendorStatus: NO_LONGER_AFFECTED, inferred: true, since: T1 })]);
  });

  it("takes an empty grid of affected components as every component it listed being unaffected, and changes nothing the next time", () => {
    const before = [state("a", "degraded")];
    const first = deriveComponentStep(input({ grid: grid([], { partial: "affected" }), current: before, quiet: running(["a"]) }));
    expect(first.started.map((s) => [s.componentId, s.status, s.inferred])).toEqual([["a", "operational", true]]);
    expect(first.quiet).toEqual({ kind: "end" });
    expect(deriveComponentStep(input({ grid: grid([], { partial: "affected" }), current: first.started }))).toEqual({ ended: [], started: [], quiet: null });
  });

  it("leaves alone what another source stated, a component it could not read, and everything when an id could not be read", () => {
    const current = [state("a", "degraded", { source: OTHER }), state("b", "degraded"), state("c", "degraded")];
    expect(deriveComponentStep(input({ grid: grid([], { partial: "affected", unreadIds: ["b"] }), current })).ended).toEqual(["c"]);
    expect(deriveComponentStep(input({ grid: grid([], { partial: "affected", blind: true }), current })).ended).toEqual([]);
  });
});
