/**
 * Synthetic but realistic vendors and incident lifecycles for the large benchmark database. Each
 * incident is a script: the states a vendor's feed shows on successive polls (opened, updated,
 * resolved, then edited after the fact) and when it leaves the feed or is deleted. Deterministic
 * for a given seed, so the cached database is the same wherever it is built.
 */
import { between, COMPONENT_NAMES, NAME_HEADS, NAME_TAILS, pick, postmortemBody, providerId, type Random, REGIONS, sentences, updateBody } from "@/bench/synthetic-text";
import type { Component, Impact, Incident, IncidentUpdate } from "@/lib/incident";

export interface SyntheticVendor {
  slug: string;
  name: string;
  incidents: number;
  components: Component[];
}

/** Vendors with a long-tailed share of the incidents: a few very busy pages, many quiet ones. */
export function createVendors(random: Random, count: number, totalIncidents: number): SyntheticVendor[] {
  const weights = Array.from({ length: count }, (_, i) => 1 / (i + 20));
  const sum = weights.reduce((a, b) => a + b, 0);
  const counts = weights.map((w) => Math.floor((w / sum) * totalIncidents));
  counts[0] = (counts[0] ?? 0) + totalIncidents - counts.reduce((a, b) => a + b, 0);
  return counts.map((n, i) => {
    const name = `${NAME_HEADS[i % NAME_HEADS.length]}${NAME_TAILS[Math.floor(i / NAME_HEADS.length) % NAME_TAILS.length]}`;
    const regional = random() < 0.3;
    const names = new Set<string>();
    const wanted = between(random, 6, 20);
    while (names.size < wanted) {
      const base = pick(random, COMPONENT_NAMES);
      names.add(regional ? `${base} (${pick(random, REGIONS)})` : base);
    }
    return {
      slug: `${name.toLowerCase()}-${i + 1}`,
      name: `${name} ${i + 1}`,
      incidents: n,
      components: [...names].map((c) => ({ id: providerId(random), name: c })),
    };
  });
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** One incident's life as its feed shows it, and when the feed stops showing it. */
export interface IncidentScript {
  /** The successive states; state i+1 is listed from offset changeAt[i] on. */
  states: Incident[];
  changeAt: number[];
  /** The listing offset at which the vendor deletes it, or null. */
  deletedAt: number | null;
  reappears: boolean;
}

type Edit = "downgrade" | "escalate" | "edit-update" | "remove-update" | "backdate" | "retime" | "postmortem" | "edit-postmortem" | "rename" | "components" | "reschedule";
const EDITS: ReadonlyArray<[Edit, number]> = [
  ["downgrade", 3], ["edit-update", 4], ["remove-update", 1], ["backdate", 2], ["retime", 2], ["postmortem", 3],
  ["edit-postmortem", 2], ["rename", 2], ["components", 2], ["escalate", 1],
];
const MAINTENANCE_EDITS: ReadonlyArray<[Edit, number]> = [["reschedule", 4], ["edit-update", 2], ["rename", 1], ["components", 1]];
const IMPACTS: ReadonlyArray<[Impact, number]> = [["minor", 5], ["major", 3], ["critical", 1], ["none", 1]];
/** Changes after the first version: their count decides the average of about five versions per incident. */
const CHANGE_COUNTS: ReadonlyArray<[number, number]> = [[1, 10], [2, 18], [3, 34], [4, 22], [5, 16]];

function weighted<T>(random: Random, items: ReadonlyArray<[T, number]>): T {
  let r = random() * items.reduce((a, [, w]) => a + w, 0);
  for (const [item, w] of items) {
    r -= w;
    if (r < 0) return item;
  }
  const last = items.at(-1);
  if (!last) throw new Error("bench: weighted pick from an empty list");
  return last[0];
}

interface ScriptContext {
  random: Random;
  vendor: SyntheticVendor;
  /** When the incident starts, in ms. */
  startMs: number;
  /** Listing offsets available for changes (1 .. window-1). */
  window: number;
}

function newUpdate(ctx: ScriptContext, status: string, atMs: number, body: string): IncidentUpdate {
  return { id: providerId(ctx.random), status, body, createdAt: iso(atMs), displayAt: iso(atMs) };
}

function applyEdit(ctx: ScriptContext, s: Incident, edit: Edit): Incident {
  const { random } = ctx;
  const component = s.components[0]?.name ?? "the service";
  const target = s.updates.length > 0 ? Math.floor(random() * s.updates.length) : -1;
  const updates = [...s.updates];
  const at = updates[target];
  switch (edit) {
    case "downgrade":
      return { ...s, impact: s.impact === "critical" ? "major" : s.impact === "major" ? "minor" : "none" };
    case "escalate":
      return { ...s, impact: s.impact === "none" || s.impact === null ? "minor" : s.impact === "minor" ? "major" : "critical" };
    case "edit-update":
      if (!at) return s;
      updates[target] = { ...at, body: `${at.body.split(". ").slice(0, -1).join(". ") || at.body}. ${sentences(random, 1, 2)}` };
      return { ...s, updates };
    case "remove-update":
      if (!at || updates.length < 2) return s;
      updates.splice(target, 1);
      return { ...s, updates };
    case "backdate":
      if (!at || !at.displayAt) return s;
      updates[target] = { ...at, displayAt: iso(Date.parse(at.displayAt) - between(random, 10, 90) * 60_000) };
      return { ...s, updates };
    case "retime":
      return { ...s, startedAt: s.startedAt ? iso(Date.parse(s.startedAt) - between(random, 15, 120) * 60_000) : s.startedAt };
    case "postmortem":
      return { ...s, postmortem: { body: postmortemBody(random, s.title, component), publishedAt: iso(ctx.startMs + between(random, 2, 20) * 86_400_000) } };
    case "edit-postmortem":
      return s.postmortem ? { ...s, postmortem: { ...s.postmortem, body: `${s.postmortem.body}\n\n## Update\n\n${sentences(random, 2, 4)}` } } : s;
    case "rename":
      return { ...s, title: `${s.title.replace(/^(Elevated|Increased|Degraded|Partial|Intermittent) /, "")} (${pick(random, REGIONS)})` };
    case "reschedule": {
      const shift = between(random, 1, 48) * 3_600_000;
      const move = (t: string | null) => (t ? iso(Date.parse(t) + shift) : t);
      return { ...s, scheduledFor: move(s.scheduledFor), scheduledUntil: move(s.scheduledUntil) };
    }
    case "components": {
      const extra = pick(random, ctx.vendor.components);
      const components = s.components.some((c) => c.id === extra.id) ? s.components.slice(0, Math.max(1, s.components.length - 1)) : [...s.components, extra];
      return { ...s, components };
    }
  }
}

/** The script of one incident: its first state, progress to resolution, then edits of every kind. */
export function scriptIncident(ctx: ScriptContext, vendorSlug: string): IncidentScript {
  const { random, vendor, startMs } = ctx;
  const maintenance = random() < 0.08;
  const long = random() < 0.05;
  const components = Array.from({ length: between(random, 1, 3) }, () => pick(random, vendor.components)).filter((c, i, all) => all.findIndex((o) => o.id === c.id) === i);
  const component = components[0]?.name ?? "the service";
  const region = pick(random, REGIONS);
  const id = providerId(random);
  const title = maintenance
    ? pick(random, [`Scheduled maintenance of ${component}`, `${component} database upgrade`, `Network maintenance in ${region}`])
    : pick(random, [
        `Elevated error rates for ${component}`, `Degraded performance of ${component}`, `Increased latency in ${component} (${region})`,
        `${component} unavailable for some customers`, `Delays in ${component} processing`, `Intermittent failures when accessing ${component}`,
        `Partial outage of ${component} in ${region}`, `Investigating issues with ${component}`,
      ]);
  const durationMs = between(random, 20, long ? 24 * 60 : 8 * 60) * 60_000;
  const first: Incident = {
    vendor: vendorSlug,
    id,
    kind: maintenance ? "maintenance" : "incident",
    title,
    status: maintenance ? "scheduled" : "investigating",
    impact: maintenance ? "maintenance" : weighted(random, IMPACTS),
    url: `https://status.${vendorSlug}.example/incidents/${id}`,
    startedAt: iso(startMs),
    resolvedAt: null,
    scheduledFor: maintenance ? iso(startMs) : null,
    scheduledUntil: maintenance ? iso(startMs + durationMs) : null,
    components,
    updates: [newUpdate(ctx, maintenance ? "scheduled" : "investigating", startMs, updateBody(ctx.random, maintenance ? "scheduled" : "investigating", component, long))],
    postmortem: null,
  };
  const changes = weighted(random, CHANGE_COUNTS);
  const progress = maintenance ? ["in_progress"] : long ? ["identified", "identified", "monitoring"] : ["identified", "monitoring"];
  const steps = Math.min(progress.length + 1, changes);
  const states = [first];
  let s = first;
  for (let i = 0; i < changes; i += 1) {
    const atMs = startMs + Math.round(((i + 1) / (steps + 1)) * durationMs);
    if (i < steps - 1) {
      const status = progress[i % progress.length] ?? "identified";
      s = { ...s, status, updates: [...s.updates, newUpdate(ctx, status, atMs, updateBody(ctx.random, status, component, long))] };
      if (maintenance && random() < 0.3) s = { ...s, scheduledUntil: iso(startMs + durationMs + 3_600_000) };
      else if (random() < 0.15) s = applyEdit(ctx, s, "escalate");
      else if (random() < 0.1) s = applyEdit(ctx, s, "components");
    } else if (i === steps - 1) {
      const status = maintenance ? "completed" : "resolved";
      s = { ...s, status, resolvedAt: iso(startMs + durationMs), updates: [...s.updates, newUpdate(ctx, status, startMs + durationMs, updateBody(ctx.random, status, component, long))] };
    } else {
      let edit = weighted(random, maintenance ? MAINTENANCE_EDITS : EDITS);
      if (edit === "edit-postmortem" && !s.postmortem) edit = "postmortem";
      if (edit === "postmortem" && s.postmortem) edit = "edit-postmortem";
      s = applyEdit(ctx, s, edit);
    }
    states.push(s);
  }
  const deleted = random() < 0.005;
  const deletedAt = deleted ? between(random, 1, ctx.window - 1) : null;
  const offsets = Array.from({ length: ctx.window - 1 }, (_, i) => i + 1).filter((o) => o !== deletedAt);
  // Changes land on distinct polls, in order; one that would fall after the last listing never shows.
  const shuffled = offsets.map((o) => ({ o, r: random() })).sort((a, b) => a.r - b.r).map(({ o }) => o);
  const changeAt = shuffled.slice(0, states.length - 1).sort((a, b) => a - b);
  while (changeAt.length < states.length - 1) changeAt.push(Infinity);
  return { states, changeAt, deletedAt, reappears: deleted && random() < 0.4 };
}

/** The state the feed shows at a listing offset, or null when it does not list the incident then. */
export function stateAt(script: IncidentScript, offset: number): Incident | null {
  if (script.deletedAt !== null && (offset === script.deletedAt || (offset > script.deletedAt && !script.reappears))) return null;
  let index = 0;
  while (index < script.changeAt.length && (script.changeAt[index] ?? Infinity) <= offset) index += 1;
  return script.states[index] ?? null;
}
