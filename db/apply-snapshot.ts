import { and, desc, eq, inArray, sql } from "drizzle-orm";
import type { RedlineExecutor } from "@/db/client";
import { incidents, incidentVersions, versionKinds } from "@/db/schema";
import { canonicalizeIncident, hashIncident } from "@/lib/canonicalize";
import type { Change } from "@/lib/change";
import { classifyChanges } from "@/lib/classify-changes";
import { diffStates } from "@/lib/diff-incidents";
import { type Incident, type IncidentState, keepFirstById, type Presence } from "@/lib/incident";
import { judgeAbsences, recencyOf, type PresenceRule } from "@/lib/presence";
import { summarizeVersion } from "@/lib/summarize";

type IncidentRow = typeof incidents.$inferSelect;

export interface SnapshotContext {
  vendor: { id: number; name: string };
  captureId: number;
  source: string;
  observedAt: string;
  presence: PresenceRule;
}

/** SQLite caps bound parameters; json_each takes any number of ids as one. */
function jsonIds(ids: readonly string[]): string {
  return JSON.stringify(ids);
}

function lastState(db: RedlineExecutor, incidentId: number): IncidentState {
  const row = db
    .select({ snapshot: incidentVersions.snapshot })
    .from(incidentVersions)
    .where(eq(incidentVersions.incidentId, incidentId))
    .orderBy(desc(incidentVersions.seq))
    .limit(1)
    .get();
  if (!row) throw new Error(`store: incident ${incidentId} has no version`);
  return row.snapshot as IncidentState;
}

function appendVersion(
  db: RedlineExecutor,
  ctx: SnapshotContext,
  row: IncidentRow | null,
  previous: IncidentState | null,
  state: IncidentState,
  hash: string,
  changes: Change[],
): void {
  const kinds = classifyChanges(changes, { isFirst: previous === null });
  const summary = summarizeVersion({ vendorName: ctx.vendor.name, state, previous, changes, kinds, observedAt: ctx.observedAt });
  const { incident, presence } = state;
  const current = {
    kind: incident.kind,
    title: incident.title,
    status: incident.status,
    impact: incident.impact,
    startedAt: incident.startedAt,
    resolvedAt: incident.resolvedAt,
    presence,
    source: ctx.source,
    observedHash: hash,
    lastChangedAt: ctx.observedAt,
  };
  let incidentId: number;
  let seq: number;
  if (row === null) {
    incidentId = db
      .insert(incidents)
      .values({
        ...current,
        vendorId: ctx.vendor.id,
        providerId: incident.id,
        firstSeenAt: ctx.observedAt,
        lastSeenAt: ctx.observedAt,
        versionCount: 1,
      })
      .returning({ id: incidents.id })
      .get().id;
    seq = 1;
  } else {
    incidentId = row.id;
    seq = row.versionCount + 1;
    db.update(incidents)
      .set({ ...current, versionCount: seq, ...(presence === "listed" ? { lastSeenAt: ctx.observedAt } : {}) })
      .where(eq(incidents.id, row.id))
      .run();
  }
  const versionId = db
    .insert(incidentVersions)
    .values({
      incidentId,
      vendorId: ctx.vendor.id,
      seq,
      observedAt: ctx.observedAt,
      hash,
      snapshot: state,
      changes,
      kinds,
      summary,
      captureId: ctx.captureId,
    })
    .returning({ id: incidentVersions.id })
    .get().id;
  if (kinds.length > 0) {
    db.insert(versionKinds)
      .values(kinds.map((kind) => ({ versionId, kind, vendorId: ctx.vendor.id, observedAt: ctx.observedAt })))
      .run();
  }
}

/**
 * Turn one parsed snapshot into versions: a new version for each incident whose content or
 * presence changed, nothing for the rest. Runs inside the caller's transaction.
 * Returns the number of versions appended.
 */
export function applySnapshot(db: RedlineExecutor, ctx: SnapshotContext, parsed: readonly Incident[]): number {
  const seen = new Map<string, { incident: Incident; hash: string }>();
  for (const raw of keepFirstById(parsed)) {
    const incident = canonicalizeIncident(raw);
    seen.set(incident.id, { incident, hash: hashIncident(incident) });
  }
  const rows = new Map<string, IncidentRow>();
  if (seen.size > 0) {
    const found = db
      .select()
      .from(incidents)
      .where(
        and(
          eq(incidents.vendorId, ctx.vendor.id),
          inArray(incidents.providerId, sql`(select value from json_each(${jsonIds([...seen.keys()])}))`),
        ),
      )
      .all();
    for (const r of found) rows.set(r.providerId, r);
  }

  let added = 0;
  const untouched: number[] = [];
  for (const { incident, hash } of seen.values()) {
    const row = rows.get(incident.id) ?? null;
    if (row === null) {
      const state: IncidentState = { incident, presence: "listed" };
      appendVersion(db, ctx, null, null, state, hash, diffStates(null, state));
      added += 1;
      continue;
    }
    if (row.presence === "listed" && row.observedHash === hash && row.source === ctx.source) {
      untouched.push(row.id);
      continue;
    }
    const previous = lastState(db, row.id);
    const state: IncidentState = { incident, presence: "listed" };
    const changes = diffStates(previous, state);
    if (changes.length === 0) {
      db.update(incidents)
        .set({ observedHash: hash, source: ctx.source, presence: "listed", lastSeenAt: ctx.observedAt })
        .where(eq(incidents.id, row.id))
        .run();
      continue;
    }
    appendVersion(db, ctx, row, previous, state, hash, changes);
    added += 1;
  }
  if (untouched.length > 0) {
    db.update(incidents)
      .set({ lastSeenAt: ctx.observedAt })
      .where(inArray(incidents.id, sql`(select value from json_each(${JSON.stringify(untouched)}))`))
      .run();
  }
  if (ctx.presence.kind !== "single") added += recordAbsences(db, ctx, seen);
  return added;
}

/** Versions for incidents this source listed before and does not list now. */
function recordAbsences(
  db: RedlineExecutor,
  ctx: SnapshotContext,
  seen: ReadonlyMap<string, { incident: Incident; hash: string }>,
): number {
  const listed = db
    .select()
    .from(incidents)
    .where(and(eq(incidents.vendorId, ctx.vendor.id), eq(incidents.source, ctx.source), eq(incidents.presence, "listed")))
    .all();
  const missing = listed.filter((r) => !seen.has(r.providerId));
  if (missing.length === 0) return 0;
  const absent = missing.map((row) => ({ row, before: lastState(db, row.id) }));
  const verdicts = judgeAbsences(
    ctx.presence,
    absent.map(({ row, before }) => ({ key: row.providerId, recency: recencyOf(before.incident) })),
    [...seen.values()].map((s) => recencyOf(s.incident)),
    listed.length,
  );
  for (const { row, before } of absent) {
    const verdict: Presence = verdicts.get(row.providerId) ?? "left-feed";
    const state: IncidentState = { incident: before.incident, presence: verdict };
    appendVersion(db, ctx, row, before, state, hashIncident(before.incident), diffStates(before, state));
  }
  return missing.length;
}
