import type { RedlineDb } from "@/db/client";
import { describe, expect, it } from "vitest";
import { getPollState, savePollState } from "@/db/operations/poll-state";
import { addLiveSource, addVendor, ensureVendor, getVendorBySlug, listVendorSummaries, removeVendor, VendorError, VendorExistsError } from "@/db/settings/vendors";
import { freshDatabase } from "@/tests/support/database";

const settings = { slug: "acme", name: "Acme", platform: "statuspage", url: "https://status.acme.test/" };

async function refusalOf(work: () => Promise<unknown>): Promise<unknown> {
  try {
    await work();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe("adding vendors", () => {
  it.each([
    ["imported", /acme already exists: imported as statuspage-summary, not polled$/, (db: RedlineDb) => ensureVendor(db, { slug: "acme", platform: "statuspage-summary" })],
    ["polled", /acme already exists: polled from https:\/\/status\.acme\.test\/ with statuspage \(added by hand\)$/, (db: RedlineDb) => addVendor(db, settings, "user")],
    ["removed", /acme already exists: removed, its history kept \(was polled from https:\/\/status\.acme\.test\/ with statuspage\)$/, async (db: RedlineDb) => {
      await addVendor(db, settings, "catalog");
      await removeVendor(db, "acme", false);
    }],
  ])("refuses an existing %s slug, saying what exists and changing nothing", async (_state, message, arrange) => {
    const db = await freshDatabase();
    await arrange(db);
    const before = await getVendorBySlug(db, "acme");
    const error = await refusalOf(() => addVendor(db, { ...settings, url: "https://other.acme.test/" }, "user"));
    expect(error).toBeInstanceOf(VendorExistsError);
    expect(error).toMatchObject({ kind: "vendor-exists", message: expect.stringMatching(message) });
    expect(await getVendorBySlug(db, "acme")).toEqual(before);
  });

  it("gives an imported vendor a URL to poll, keeping its row and creation time", async () => {
    const db = await freshDatabase();
    const imported = await ensureVendor(db, { slug: "acme", platform: "statuspage-summary" }, "2026-01-01T00:00:00.000Z");
    const polled = await addLiveSource(db, { ...settings, homepage: "https://acme.test/" });
    expect(polled).toMatchObject({ id: imported.id, createdAt: "2026-01-01T00:00:00.000Z", url: settings.url, platform: "statuspage", enabled: true, origin: "user", homepage: "https://acme.test/" });
  });

  it("polls a removed vendor again from scratch: no schedule or backoff left from before, catalog details kept", async () => {
    const db = await freshDatabase();
    const vendor = await addVendor(db, { ...settings, homepage: "https://acme.test/" }, "catalog");
    await savePollState(db, {
      vendorId: vendor.id, nextPollAt: "2099-01-01T00:00:00.000Z", lastPollAt: "2026-01-01T00:00:00.000Z", lastOutcome: "failed",
      lastError: "connection refused", consecutiveFailures: 7, backoffSeconds: 3600,
    });
    await removeVendor(db, "acme", false);
    const again = await addLiveSource(db, { ...settings, url: "https://moved.acme.test/" });
    expect(again).toMatchObject({ enabled: true, url: "https://moved.acme.test/", origin: "user", homepage: "https://acme.test/" });
    expect(await getPollState(db, vendor.id)).toBeUndefined();
  });

  it("refuses to give a polled vendor a second URL, and an unknown slug any", async () => {
    const db = await freshDatabase();
    await addVendor(db, settings, "user");
    expect(await refusalOf(() => addLiveSource(db, { ...settings, url: "https://other.acme.test/" }))).toBeInstanceOf(VendorExistsError);
    expect((await getVendorBySlug(db, "acme"))?.url).toBe(settings.url);
    expect(await refusalOf(() => addLiveSource(db, { ...settings, slug: "nobody" }))).toBeInstanceOf(VendorError);
    expect(await getVendorBySlug(db, "nobody")).toBeUndefined();
  });
});

describe("listing vendors", () => {
  it("orders vendors by name ignoring case, so a lowercase name sorts among the others", async () => {
    const db = await freshDatabase();
    for (const [slug, name] of [["zoom", "Zoom"], ["incident-io", "incident.io"], ["github", "GitHub"], ["atlassian", "atlassian"], ["jira", "Jira"]] as const) {
      await ensureVendor(db, { slug, name, platform: "statuspage-summary" });
    }
    expect((await listVendorSummaries(db)).map((v) => v.name)).toEqual(["atlassian", "GitHub", "incident.io", "Jira", "Zoom"]);
  });
});
