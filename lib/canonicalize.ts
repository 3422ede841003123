import { createHash } from "node:crypto";
import type { Component, Incident, IncidentUpdate, Postmortem } from "@/lib/incident";

/** Normalize text the way every comparison sees it: LF line endings, no trailing blanks, no NULs. */
export function normalizeText(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .replaceAll("\u0000", "")
    .replace(/[ \t\u00a0]+$/gm, "")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Components are a set: one entry per id, ordered by id, so a reorder is not a change. */
export function canonicalizeComponents(components: readonly Component[]): Component[] {
  const byId = new Map<string, Component>();
  for (const c of components) {
    if (!byId.has(c.id)) byId.set(c.id, { id: c.id, name: normalizeText(c.name) });
  }
  return [...byId.values()].sort((a, b) => compareStrings(a.id, b.id));
}

function updateTime(u: IncidentUpdate): string {
  return u.displayAt ?? u.createdAt ?? "";
}

/** Updates in timeline order (oldest first), one per id; ties broken by id so order never flaps. */
export function canonicalizeUpdates(updates: readonly IncidentUpdate[]): IncidentUpdate[] {
  const byId = new Map<string, IncidentUpdate>();
  for (const u of updates) {
    if (byId.has(u.id)) continue;
    byId.set(u.id, {
      id: u.id,
      status: u.status,
      body: normalizeText(u.body),
      createdAt: u.createdAt,
      displayAt: u.displayAt,
    });
  }
  return [...byId.values()].sort((a, b) => compareStrings(updateTime(a), updateTime(b)) || compareStrings(a.id, b.id));
}

function canonicalizePostmortem(p: Postmortem | null): Postmortem | null {
  if (p === null) return null;
  const body = normalizeText(p.body);
  return body === "" ? null : { body, publishedAt: p.publishedAt };
}

/** The one canonical form of an incident: fixed key order, sets sorted, text normalized. */
export function canonicalizeIncident(incident: Incident): Incident {
  return {
    vendor: incident.vendor,
    id: incident.id,
    kind: incident.kind,
    title: normalizeText(incident.title),
    status: incident.status,
    impact: incident.impact,
    url: incident.url,
    startedAt: incident.startedAt,
    resolvedAt: incident.resolvedAt,
    scheduledFor: incident.scheduledFor,
    scheduledUntil: incident.scheduledUntil,
    components: canonicalizeComponents(incident.components),
    updates: canonicalizeUpdates(incident.updates),
    postmortem: canonicalizePostmortem(incident.postmortem),
  };
}

export function sha256Hex(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/** Content hash of an already canonical incident. */
export function hashIncident(canonical: Incident): string {
  return sha256Hex(JSON.stringify(canonical));
}
