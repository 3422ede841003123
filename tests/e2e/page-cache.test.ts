import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startE2eApp } from "@/tests/e2e/support/e2e-app";
import { FIXTURES } from "@/tests/e2e/support/seed-database";

const app = startE2eApp("page-cache");

const LATEST = path.join(FIXTURES, "acme-incident", "20260306T090000Z__incident.json");

/** The page, with this response's CSP nonce (which each reader gets afresh) written as "NONCE". */
async function get(pathname: string): Promise<{ cache: string | null; body: string; nonce: string }> {
  const response = await fetch(`${app().baseUrl}${pathname}`);
  expect(response.status).toBe(200);
  const nonce = /'nonce-([^']+)'/.exec(response.headers.get("content-security-policy") ?? "")?.[1] ?? "";
  expect(nonce).not.toBe("");
  return { cache: response.headers.get("x-redline-cache"), body: (await response.text()).replaceAll(nonce, "NONCE"), nonce };
}

/** The page cache's verdict on a page, after reading it whole. */
async function cacheOf(pathname: string): Promise<string | null> {
  const response = await fetch(`${app().baseUrl}${pathname}`);
  expect(response.status).toBe(200);
  await response.arrayBuffer();
  return response.headers.get("x-redline-cache");
}

describe("the page cache in front of the rendered pages", () => {
  it("serves a repeat visit as rendered for the first, and a new version as soon as it is archived, keeping other vendors' incidents", async () => {
    const snapshot = JSON.parse(fs.readFileSync(LATEST, "utf8")) as { incident: { id: string; name: string } };
    const incidentPath = `/vendors/acme/incidents/${snapshot.incident.id}`;
    // Another vendor's incident, and the lists and feeds a new version of Acme's shows in.
    const others = ["/vendors/hostile/incidents/hostile00001"];
    const showing = ["/vendors/acme/changes", "/vendors/acme/feed.atom", "/", "/feed.atom", "/api/v1/changes"];
    for (const pathname of [...others, ...showing]) await cacheOf(pathname);
    for (const pathname of [...others, ...showing]) expect(await cacheOf(pathname)).toBe("hit");
    const first = await get(incidentPath);
    const second = await get(incidentPath);
    expect([first.cache, second.cache]).toEqual(["miss", "hit"]);
    expect(second.body).toBe(first.body);
    expect(second.nonce).not.toBe(first.nonce);

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "redline-e2e-cache-"));
    snapshot.incident.name = "Delayed webhook deliveries in every region";
    fs.writeFileSync(path.join(dir, "20260307T090000Z__incident.json"), JSON.stringify(snapshot));
    await app().redline(["import", dir, "--vendor", "acme", "--platform", "statuspage-incident"]);

    const third = await get(incidentPath);
    expect(third.cache).toBe("miss");
    for (const pathname of others) expect(await cacheOf(pathname)).toBe("hit");
    for (const pathname of showing) expect(await cacheOf(pathname)).toBe("miss");
    expect(third.body).toContain("Delayed webhook deliveries in every region");
    const page = await app().page();
    await app().visit(page, incidentPath, "incident-after-new-version");
    await expect(page.locator("h1").textContent()).resolves.toBe("Delayed webhook deliveries in every region");
  });
});
