import fs from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { startE2eApp } from "@/tests/e2e/support/e2e-app";
import { SCREENSHOT_DIR } from "@/tests/e2e/support/seed-database";
import { closeStore, openStore } from "@/db/client";
import { corpusPath, describeCorpus } from "@/tests/support/corpus";
import { queryRow } from "@/tests/support/database";

// Its one client asks for pages as fast as they answer for as long as the import takes, which on a
// busy machine can outlast any per-client budget: what it checks is that pages answer, not the limit.
const app = startE2eApp("concurrent-import", { env: { REDLINE_RATE_LIMIT_PER_SECOND: "0" } });

const PAGES = ["/", "/vendors", "/vendors/acme", "/vendors/acme/incidents/acmeapi00001", "/search?q=webhook", "/api/v1/changes", "/feed.atom"];

describeCorpus("pages while an import writes at full speed", () => {
  it("keep answering, and no database lock reaches a reader", async () => {
    // Google Cloud's history: about a hundred multi-megabyte snapshots, written one transaction each.
    const importing = app().redline(["import", corpusPath("gcp-incidents"), "--vendor", "google-cloud", "--platform", "gcp"]);
    let done = false;
    void importing.finally(() => (done = true));
    // A reader of its own, as a third process would be: it must never wait on the import either.
    const reader = await openStore(app().database, { migrate: false });
    const written = async () => (await queryRow<{ n: number }>(reader, "SELECT count(*) AS n FROM captures c JOIN vendors v ON v.id = c.vendor_id WHERE v.slug = 'google-cloud'"))?.n ?? 0;
    const statuses = new Map<number, number>();
    let requests = 0;
    // Requests that began after the import had recorded a capture and ended before it was done.
    let amidWrites = 0;
    while (!done) {
      for (const page of PAGES) {
        const during = (await written()) > 0;
        // "no-cache": every request renders and reads the database, none is served from the page cache.
        const response = await fetch(`${app().baseUrl}${page}`, { headers: { "cache-control": "no-cache" } });
        await response.arrayBuffer();
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        requests += 1;
        if (during && !done) amidWrites += 1;
      }
    }
    await importing;
    await closeStore(reader);
    console.log(`concurrent import: ${requests} page and API requests, ${amidWrites} of them while the import wrote: ${JSON.stringify(Object.fromEntries(statuses))}`);
    expect(amidWrites).toBeGreaterThanOrEqual(PAGES.length);
    expect([...statuses.keys()]).toEqual([200]);
    const log = fs.readFileSync(path.join(SCREENSHOT_DIR, "concurrent-import-next-start.log"), "utf8");
    expect(log).not.toMatch(/SQLITE_BUSY|database is locked/i);
    // The import is there in the pages afterwards.
    expect((await fetch(`${app().baseUrl}/vendors/google-cloud`)).status).toBe(200);
  });
});
