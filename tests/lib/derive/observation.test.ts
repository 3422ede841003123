import { describe, expect, it } from "vitest";
import { MAX_INCIDENT_ID_BYTES, wholeSnapshot, withBoundedIds } from "@/lib/derive/observation";
import { makeIncident } from "@/tests/support/incidents";

describe("incident ids longer than a key", () => {
  it("leaves out only the incident whose id is too long, as unread with a warning naming its path, so no absence is judged", () => {
    const long = "é".repeat(MAX_INCIDENT_ID_BYTES / 2 + 1);
    const snapshot = wholeSnapshot([makeIncident({ id: "ok1" }), makeIncident({ id: long }), makeIncident({ id: "x".repeat(MAX_INCIDENT_ID_BYTES) })]);
    const bounded = withBoundedIds(snapshot);
    expect(bounded.observations.map((o) => o.incident.id)).toEqual(["ok1", "x".repeat(MAX_INCIDENT_ID_BYTES)]);
    expect(bounded.unread).toEqual([{ id: null, path: "[1]" }]);
    expect(bounded.warnings).toEqual([{ path: "[1].id", message: `an id of ${MAX_INCIDENT_ID_BYTES + 2} bytes, longer than ${MAX_INCIDENT_ID_BYTES}: the incident is left out` }]);
  });

  it("gives a snapshot without such ids back as it is", () => {
    const snapshot = wholeSnapshot([makeIncident({ id: "a" })]);
    expect(withBoundedIds(snapshot)).toBe(snapshot);
  });
});
