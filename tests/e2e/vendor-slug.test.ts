import { describe, expect, it } from "vitest";
import { E2E_OPERATOR_TOKEN } from "@/tests/e2e/support/app-server";
import { startE2eApp } from "@/tests/e2e/support/e2e-app";

const app = startE2eApp("vendor-slug");

function addVendor(slug: string): Promise<Response> {
  return fetch(`${app().baseUrl}/api/v1/vendors`, {
    method: "POST",
    headers: { authorization: `Bearer ${E2E_OPERATOR_TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify({ slug, name: "Long Name Co", platform: "statuspage", url: "https://status.longname.example/" }),
  });
}

describe("vendor slugs through the web server", () => {
  it("refuses a 5,000-character slug with a 400 problem naming the slug and the limit, and takes one of 64", async () => {
    const refused = await addVendor("a".repeat(5_000));
    const text = await refused.text();
    expect(refused.status, text).toBe(400);
    expect(refused.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(text)).toMatchObject({ parameter: "slug", detail: expect.stringMatching(/at most 64$/) });
    expect(text.length).toBeLessThan(500);
    const listed = (await (await fetch(`${app().baseUrl}/api/v1/vendors?q=Long%20Name`)).json()) as { data: unknown[] };
    expect(listed.data).toEqual([]);
    const longest = "b".repeat(64);
    expect((await addVendor(longest)).status).toBe(201);
    expect((await fetch(`${app().baseUrl}/api/v1/vendors/${longest}`)).status).toBe(200);
  });
});
