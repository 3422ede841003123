import { describe, expect, it } from "vitest";
import { countArchive } from "@/db/queries/archive-counts";
import { addVendor, removeVendor } from "@/db/settings/vendors";
import { archiveAcmeLifecycle } from "@/tests/support/acme-archive";
import { freshDatabase } from "@/tests/support/database";
import { testDatabaseDialect } from "@/tests/support/test-database-settings";

describe(`countArchive (${testDatabaseDialect})`, () => {
  it("counts vendors, the polled among them, and incidents, from an empty archive on", async () => {
    const db = await freshDatabase();
    expect(await countArchive(db)).toEqual({ vendors: 0, polledVendors: 0, incidents: 0 });
    await addVendor(db, { slug: "globex", name: "Globex", platform: "statuspage", url: "https://status.globex.example" }, "user");
    expect(await countArchive(db)).toEqual({ vendors: 1, polledVendors: 1, incidents: 0 });
    await archiveAcmeLifecycle(db);
    const counts = await countArchive(db);
    expect(counts).toMatchObject({ vendors: 2, polledVendors: 1 });
    expect(counts.incidents).toBeGreaterThan(0);
    await removeVendor(db, "globex", false);
    expect(await countArchive(db)).toMatchObject({ vendors: 2, polledVendors: 0 });
  });
});
