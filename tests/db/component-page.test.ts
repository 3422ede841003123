import { describe, expect, it } from "vitest";
import type { RedlineDb } from "@/db/client";
import { componentExists, findComponentPage } from "@/db/queries/component-page";
import { archivePathExists } from "@/db/queries/route-exists";
import { ensureVendor, type VendorRow } from "@/db/settings/vendors";
import { componentPeriodOf, toComponentPage } from "@/lib/components/component-page";
import { platformProfileOf } from "@/lib/platform-profiles";
import { freshDatabase } from "@/tests/support/database";
import { component, failedSummary, recordCaptures, statuspageIncident, summary } from "@/tests/support/status-captures";

const MIN = 60_000;
const T = (hhmm: string) => `2026-03-01T${hhmm}:00.000Z`;
/** Polled every ten minutes: up to thirty minutes between two good captures is watched time. */
const rules = { profileOf: platformProfileOf, defaultIntervalMs: 10 * MIN };
const NOW = new Date(T("12:00"));

const group = component("grp", "operational", { name: "Platform", group: true });
const api = (status: string) => component("api", status, { group_id: "grp", name: "Public API" });
const web = component("web", "operational");
const inc1 = (status: string) => statuspageIncident("inc1", { status, startedAt: T("10:30"), components: ["api"], updates: [{ id: "u1", at: T("10:30") }] });

async function archive(): Promise<{ db: RedlineDb; vendor: VendorRow }> {
  const db = await freshDatabase();
  const vendor = await ensureVendor(db, { slug: "acme", name: "Acme", platform: "statuspage" });
  await recordCaptures(db, vendor, [
    summary(T("10:00"), [group, api("operational"), web]),
    summary(T("10:20"), [group, api("degraded_performance"), web]),
    summary(T("10:40"), [group, api("degraded_performance"), web], [inc1("investigating")]),
    failedSummary(T("11:00")),
    summary(T("11:20"), [group, api("operational"), web]),
    summary(T("11:40"), [group, api("operational")]),
  ]);
  return { db, vendor };
}

async function page(db: RedlineDb, key: string, asked = {}) {
  const period = componentPeriodOf(asked, NOW);
  const facts = await findComponentPage(db, "acme", key, period, NOW, rules);
  return facts ? toComponentPage(facts, period, NOW) : undefined;
}

describe("a component's page from the store", () => {
  it("gives the time in each state of the time watched, a failed capture's stretch apart, and the day it was watched on the strip", async () => {
    const { db } = await archive();
    const p = await page(db, "api");
    expect(p?.name).toBe("Public API");
    expect(p?.facts.groupName).toBe("Platform");
    expect(p?.shares.byState.map((s) => [s.state, s.ms / MIN])).toEqual([["degraded", 20], ["operational", 60]]);
    expect(p?.shares.observedMs).toBe(80 * MIN);
    expect(p?.shares.unobservedMs.failed).toBe(40 * MIN);
    expect(p?.strip).toHaveLength(90);
    expect(p?.strip.at(-1)).toMatchObject({ day: "2026-03-01", state: "degraded", observedMs: 80 * MIN });
    expect(p?.strip.slice(0, -1).every((c) => c.state === "not-observed")).toBe(true);
  });

  it("lists the runs newest first with their durations, and the incidents that named it in the period", async () => {
    const { db } = await archive();
    const p = await page(db, "api");
    expect(p?.timeline.map((e) => (e.kind === "state" ? `${e.status} ${e.from.slice(11, 16)}-${e.until?.slice(11, 16) ?? "now"} ${e.durationMs / MIN}` : "not listed"))).toEqual([
      "operational 11:20-now 40", "degraded 10:20-11:20 60", "operational 10:00-10:20 20",
    ]);
    expect(p?.facts.incidents.map((i) => [i.providerId, i.startedAt, i.firstSeenAt])).toEqual([["inc1", T("10:30"), T("10:40")]]);
    expect(p?.now).toMatchObject({ state: "current", asOf: T("11:40"), run: { status: "operational" } });
    const before = await page(db, "api", { since: "2026-02-01", until: "2026-02-28" });
    expect([before?.timeline, before?.facts.incidents, before?.shares.observedMs]).toEqual([[], [], 0]);
  });

  it("says when the page stopped listing a component, and lists a group's members", async () => {
    const { db } = await archive();
    const removed = await page(db, "web");
    expect(removed?.timeline.map((e) => `${e.kind} ${e.from.slice(11, 16)}`)).toEqual(["not-listed 11:40", "state 10:00"]);
    expect(removed?.now).toMatchObject({ state: "not-listed", since: T("11:40") });
    const grp = await page(db, "grp");
    expect(grp?.isGroup).toBe(true);
    expect(grp?.facts.members.map((m) => [m.key, m.name, m.status])).toEqual([["api", "Public API", "operational"]]);
  });

  it("finds no page for a component the vendor never listed, nor for an unknown vendor", async () => {
    const { db, vendor } = await archive();
    expect(await page(db, "nope")).toBeUndefined();
    expect(await componentExists(db, vendor.id, "api")).toBe(true);
    expect(await componentExists(db, vendor.id, "API")).toBe(false);
    expect(await findComponentPage(db, "nobody", "api", componentPeriodOf({}, NOW), NOW, rules)).toBeUndefined();
    const paths = ["/vendors/acme/components/api", "/vendors/acme/components/grp/", "/vendors/acme/components/nope", "/vendors/nobody/components/api", "/vendors/acme/components/%E0%A4%A"];
    expect(await Promise.all(paths.map((p) => archivePathExists(db, p)))).toEqual([true, true, false, false, false]);
  });

  it("says the state is unknown once the grid has not been read for three poll intervals", async () => {
    const { db } = await archive();
    const later = new Date(T("13:00"));
    const period = componentPeriodOf({ days: 30 }, later);
    const facts = await findComponentPage(db, "acme", "api", period, later, rules);
    if (!facts) throw new Error("no page");
    expect(toComponentPage(facts, period, later).now).toMatchObject({ state: "unknown", asOf: T("11:40"), reason: "not-polled", last: { status: "operational" } });
  });
});
