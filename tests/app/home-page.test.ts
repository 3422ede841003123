import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDatabase, openDatabase } from "@/db/client";
import { ensureVendor } from "@/db/vendors";
import { ingestSnapshot } from "@/scrapers/ingest/ingest-snapshot";
import { makeIncident } from "@/tests/support/incidents";
import { makeTestPlatform, snapshotBody } from "@/tests/support/test-platform";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "redline-home-"));
const file = path.join(dir, "home.db");

describe("the home page", () => {
  beforeAll(async () => {
    const db = openDatabase(file);
    const platform = makeTestPlatform({ kind: "active" });
    const vendor = ensureVendor(db, { slug: "acme", name: "Acme <Cloud>", platform: platform.name });
    const body = snapshotBody([makeIncident({ id: "a" }), makeIncident({ id: "b" })]);
    await ingestSnapshot(db, { vendor, platform, source: "feed.json", observedAt: "2026-03-01T10:00:00.000Z", body });
    closeDatabase(db);
    process.env.REDLINE_DB = file;
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("lists each vendor with its incident count, escaping vendor text", async () => {
    const { default: HomePage } = await import("@/app/page");
    const html = renderToStaticMarkup(HomePage());
    expect(html).toContain("Acme &lt;Cloud&gt;");
    expect(html).toMatch(/<td class="number">2<\/td>/);
    expect(html).toContain("2026-03-01 10:00 UTC");
  });
});
