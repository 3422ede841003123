import { describe, expect, it } from "vitest";
import type { RedlineDb } from "@/db/client";
import { resolveIncidentPage } from "@/db/queries/incident-route";
import { ensureVendor } from "@/db/settings/vendors";
import { freshDatabase } from "@/tests/support/database";
import { component, grid, incidents, recordCaptures, statuspageIncident } from "@/tests/support/status-captures";

const MIN = 60_000;
const T = (hhmm: string) => `2026-03-01T${hhmm}:00.000Z`;

const inc1 = (updates: Array<{ id: string; at: string; createdAt?: string }>) =>
  statuspageIncident("inc1", { status: "investigating", startedAt: T("10:15"), components: ["api"], updates });

async function archive(): Promise<RedlineDb> {
  const db = await freshDatabase();
  const vendor = await ensureVendor(db, { slug: "acme", name: "Acme", platform: "statuspage" });
  await recordCaptures(db, vendor, [
    grid(T("10:00"), [component("api", "operational"), component("web", "operational")]),
    incidents(T("10:00"), []),
    grid(T("10:10"), [component("api", "degraded_performance"), component("web", "operational")]),
    incidents(T("10:20"), []),
    incidents(T("10:33"), [inc1([{ id: "u1", at: T("10:15") }])]),
    incidents(T("10:50"), [inc1([{ id: "u1", at: T("10:15") }, { id: "u2", at: T("10:30"), createdAt: T("10:48") }])]),
    incidents(T("11:00"), [inc1([{ id: "u1", at: T("10:15") }, { id: "u2", at: T("10:30"), createdAt: T("10:48") }, { id: "u3", at: T("10:58") }])]),
  ]);
  return db;
}

describe("an incident page's timing, from the store", () => {
  it("measures the acknowledgment lag from the capture that first showed a named component degraded", async () => {
    const page = await resolveIncidentPage(await archive(), "acme", "inc1");
    expect(page?.timing.lag).toMatchObject({ componentId: "api", componentName: "API", status: "degraded", degradedFrom: T("10:10"), firstSeenAt: T("10:33"), beforeSightingMs: 23 * MIN, beforeStatedStartMs: 5 * MIN });
    expect([...(page?.componentPages ?? [])]).toEqual(["api"]);
  });

  it("finds the incident and each update posted late, bounded by the source's previous good capture", async () => {
    const page = await resolveIncidentPage(await archive(), "acme", "inc1");
    expect(page?.timing.postedLate.incident).toEqual({ givenAt: T("10:15"), boundAt: T("10:20"), firstSeenAt: T("10:33"), seq: 1, atLeastMs: 5 * MIN });
    expect(page?.timing.postedLate.updates.map((u) => [u.updateId, u.boundAt, u.atLeastMs])).toEqual([["u1", T("10:20"), 5 * MIN], ["u2", T("10:33"), 3 * MIN]]);
  });
});
