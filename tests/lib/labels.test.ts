import { describe, expect, it } from "vitest";
import { humanizeValue, impactLabel, platformLabel, presenceLabel, statusLabel } from "@/lib/labels";

describe("labels for stored values", () => {
  it("turns vendor status codes into words, whatever their case or separator", () => {
    expect(statusLabel("SERVICE_DISRUPTION")).toBe("Service disruption");
    expect(statusLabel("in_progress")).toBe("In progress");
    expect(statusLabel("investigating")).toBe("Investigating");
    expect(statusLabel("degraded_performance")).toBe("Degraded performance");
    expect(statusLabel("workaroundProvided")).toBe("Workaround provided");
    expect(statusLabel(null)).toBe("Status not stated");
  });

  it("says Google Cloud's and AWS's status codes as their dashboards do, never a bare word that reads as no status", () => {
    expect(statusLabel("service_information")).toBe("Service information");
    expect(statusLabel("service_outage")).toBe("Service outage");
    expect(statusLabel("informational")).toBe("Informational message");
    expect(statusLabel("available")).toBe("Available");
  });

  it("names Redline's presence states in words, never as identifiers like left-feed", () => {
    expect(presenceLabel("left-feed")).toBe("No longer in the feed");
    expect(presenceLabel("deleted")).toBe("Deleted by the vendor");
    expect(presenceLabel("listed")).toBe("Listed in the feed");
    expect(presenceLabel(null)).toBe("Not present");
  });

  it("says an impact was not stated instead of showing unknown", () => {
    expect(impactLabel(null)).toBe("Impact not stated");
    expect(impactLabel("unknown")).toBe("Impact not stated");
    expect(impactLabel("none")).toBe("No impact");
    expect(impactLabel("critical")).toBe("Critical");
  });

  it("humanizes any other value: separators become spaces, only the first letter capitalized", () => {
    expect(humanizeValue("partial_outage")).toBe("Partial outage");
    expect(humanizeValue("  NOT-YET_known ")).toBe("Not yet known");
    expect(humanizeValue("")).toBe("");
  });

  it("names platforms as their makers do, never as identifiers like statuspage-summary", () => {
    expect(platformLabel("statuspage-summary")).toBe("Statuspage summary.json");
    expect(platformLabel("gcp")).toBe("Google Cloud");
    expect(platformLabel("incidentio-feed")).toBe("incident.io feed");
    expect(platformLabel("statuspage-atom-fallback")).toBe("Statuspage Atom feed");
    expect(platformLabel("someday-new")).toBe("Someday new");
  });
});
