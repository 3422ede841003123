import type { Incident, IncidentUpdate } from "@/lib/incident";

/** A small resolved-later incident to vary per test. */
export function makeIncident(overrides: Partial<Incident> = {}): Incident {
  return {
    vendor: "acme",
    id: "inc1",
    kind: "incident",
    title: "Elevated API errors",
    status: "investigating",
    impact: "minor",
    url: "https://status.acme.test/incidents/inc1",
    startedAt: "2026-03-01T10:00:00.000Z",
    resolvedAt: null,
    scheduledFor: null,
    scheduledUntil: null,
    components: [{ id: "api", name: "API" }],
    updates: [makeUpdate()],
    postmortem: null,
    ...overrides,
  };
}

export function makeUpdate(overrides: Partial<IncidentUpdate> = {}): IncidentUpdate {
  return {
    id: "u1",
    status: "investigating",
    body: "We are investigating elevated error rates on the API.",
    createdAt: "2026-03-01T10:02:00.000Z",
    displayAt: "2026-03-01T10:02:00.000Z",
    ...overrides,
  };
}
