import { describe, expect, it } from "vitest";
import { getPollState, savePollState } from "@/db/poll-state";
import { addLiveSource, addVendor, ensureVendor, getVendorBySlug, listVendorSummaries, removeVendor, VendorError, VendorExistsError } from "@/db/vendors";
import { freshDatabase } from "@/tests/support/database";

const settings = { slug: "acme", name: "Acme", platform: "statuspage", url: "https://status.acme.test/" };

function refusalOf(work: () => unknown): unknown {
  try {
    work();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe("adding vendors", () => {
  it.each([
    ["imported", /acme already exists: imported as statuspage-summary, not polled$/, (db: ReturnType<typeof freshDatabase>) => ensureVendor(db, { slug: "acme", platform: "statuspage-summary" })],
    ["polled", /acme already exists: polled from https:\/\/status\.acme\.test\/ with statuspage \(added by hand\)$/, (db: ReturnType<typeof freshDatabase>) => addVendor(db, settings, "user")],
    ["removed", /acme already exists: removed, its history kept \(was polled from https:\/\/status\.acme\.test\/ with statuspage\)$/, (db: ReturnType<typeof freshDatabase>) => {
      addVendor(db, settings, "catalog");
      removeVendor(db, "acme", false);
    }],
  ])("refuses an existing %s slug, saying what exists and changing nothing", (_state, message, arrange) => {
    const db = freshDatabase();
    arrange(db);
    const before = getVendorBySlug(db, "acme");
    const error = refusalOf(() => addVendor(db, { ...settings, url: "https://other.acme.test/" }, "user"));
    expect(error).toBeInstanceOf(VendorExistsError);
    expect(error).toMatchObject({ kind: "vendor-exists", message: expect.stringMatching(message) });
    expect(getVendorBySlug(db, "acme")).toEqual(before);
  });

  it("gives an imported vendor a URL to poll, keeping its row and creation time", () => {
    const db = freshDatabase();
    const imported = ensureVendor(db, { slug: "acme", platform: "statuspage-summary" }, "2026-01-01T00:00:00.000Z");
    const polled = addLiveSource(db, { ...settings, homepage: "https://acme.test/" });
    expect(polled).toMatchObject({ id: imported.id, createdAt: "2026-01-01T00:00:00.000Z", url: settings.url, platform: "statuspage", enabled: true, origin: "user", homepage: "https://acme.test/" });
  });

  it("polls a removed vendor again from scratch: no schedule or backoff left from before, catalog details kept", () => {
    const db = freshDatabase();
    const vendor = addVendor(db, { ...settings, homepage: "https://acme.test/" }, "catalog");
    savePollState(db, {
      vendorId: vendor.id, nextPollAt: "2099-01-01T00:00:00.000Z", lastPollAt: "2026-01-01T00:00:00.000Z", lastOutcome: "failed",
      lastError: "connection refused", consecutiveFailures: 7, backoffSeconds: 3600,
    });
    removeVendor(db, "acme", false);
    const again = addLiveSource(db, { ...settings, url: "https://moved.acme.test/" });
    expect(again).toMatchObject({ enabled: true, url: "https://moved.acme.test/", origin: "user", homepage: "https://acme.test/" });
    expect(getPollState(db, vendor.id)).toBeUndefined();
  });

  it("refuses to give a polled vendor a second URL, and an unknown slug any", () => {
    const db = freshDatabase();
    addVendor(db, settings, "user");
    expect(refusalOf(() => addLiveSource(db, { ...settings, url: "https://other.acme.test/" }))).toBeInstanceOf(VendorExistsError);
    expect(getVendorBySlug(db, "acme")?.url).toBe(settings.url);
    expect(refusalOf(() => addLiveSource(db, { ...settings, slug: "nobody" }))).toBeInstanceOf(VendorError);
    expect(getVendorBySlug(db, "nobody")).toBeUndefined();
  });
});

describe("listing vendors", () => {
  it("orders vendors by name ignoring case, so a lowercase name sorts among the others", () => {
    const db = freshDatabase();
    for (const [slug, name] of [["zoom", "Zoom"], ["incident-io", "incident.io"], ["github", "GitHub"], ["atlassian", "atlassian"], ["jira", "Jira"]] as const) {
      ensureVendor(db, { slug, name, platform: "statuspage-summary" });
    }
    expect(listVendorSummaries(db).map((v) => v.name)).toEqual(["atlassian", "GitHub", "incident.io", "Jira", "Zoom"]);
  });
});
