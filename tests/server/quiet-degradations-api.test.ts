import { beforeAll, describe, expect, it } from "vitest";
import type { RedlineDb } from "@/db/client";
import { type Api, createApi } from "@/server/api/api";
import { freshDatabase } from "@/tests/support/database";
import { archiveQuietDegradations, T } from "@/tests/support/quiet-archive";

const ORIGIN = "http://redline.test";
let db: RedlineDb;
let api: Api;

beforeAll(async () => {
  db = await freshDatabase();
  api = createApi(() => db);
  await archiveQuietDegradations(db);
});

interface Item {
  vendor: string;
  vendorName: string;
  from: string;
  until: string | null;
  durationSeconds: number | null;
  components: { id: string; name: string; group: string | null; links: { html: string } }[];
  groups: string[];
  links: { html: string; vendor: string };
}
type Page = { data: Item[]; next: string | null; limit: number };

async function get(operation: "listQuietDegradations" | "listVendorQuietDegradations", query = "", slug?: string): Promise<Response> {
  const path = slug ? `/vendors/${slug}/quiet-degradations` : "/quiet-degradations";
  const handler = api[operation] as (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;
  const params: Record<string, string> = slug ? { slug } : {};
  return handler(new Request(`${ORIGIN}/api/v1${path}${query}`), { params: Promise.resolve(params) });
}

const brief = (items: readonly Item[]) => items.map((i) => `${i.vendor} ${i.from.slice(11, 16)}`);

describe("the quiet degradations of the JSON API", () => {
  it("lists every vendor's newest first, each with its components named, its groups, duration and links", async () => {
    const page = (await (await get("listQuietDegradations")).json()) as Page;
    expect(brief(page.data)).toEqual(["calm 11:00", "busy-cdn 10:45", "busy-cdn 10:35", "busy-cdn 10:25", "busy-cdn 10:15", "calm 10:10", "busy-cdn 10:05"]);
    expect(page.data.find((i) => i.vendor === "calm" && i.from === T("10:10"))).toEqual({
      vendor: "calm",
      vendorName: "Calm Cloud",
      from: T("10:10"),
      until: T("10:40"),
      durationSeconds: 1_800,
      components: [
        { id: "dns", name: "DNS", group: null, links: { html: `${ORIGIN}/vendors/calm/components/dns` } },
        { id: "api", name: "REST API", group: "Core platform", links: { html: `${ORIGIN}/vendors/calm/components/api` } },
      ],
      groups: ["Core platform"],
      links: { html: `${ORIGIN}/vendors/calm/status?at=${T("10:10")}`, vendor: `${ORIGIN}/api/v1/vendors/calm` },
    });
    expect(page.data[0]).toMatchObject({ until: null, durationSeconds: null });
  });

  it("pages by cursor, following next to the end without gaps or repeats", async () => {
    const all = brief(((await (await get("listQuietDegradations")).json()) as Page).data);
    const seen: string[] = [];
    let query = "?limit=2";
    for (let pages = 0; pages < 10; pages++) {
      const page = (await (await get("listQuietDegradations", query)).json()) as Page;
      expect(page.limit).toBe(2);
      seen.push(...brief(page.data));
      if (!page.next) break;
      expect(page.next).toMatch(/^http:\/\/redline\.test\/api\/v1\/quiet-degradations\?limit=2&cursor=/);
      query = page.next.slice(`${ORIGIN}/api/v1/quiet-degradations`.length);
    }
    expect(seen).toEqual(all);
  });

  it("narrows to vendors, a group, a component and a period, and lists one vendor's at its own address", async () => {
    const list = async (query: string, slug?: string) => brief(((await (await get(slug ? "listVendorQuietDegradations" : "listQuietDegradations", query, slug)).json()) as Page).data);
    expect(await list("?vendor=calm")).toEqual(["calm 11:00", "calm 10:10"]);
    expect(await list("?group=EUROPE")).toEqual(["calm 11:00"]);
    expect(await list("?component=dns")).toEqual(["calm 10:10"]);
    expect(await list(`?since=${T("10:20")}&until=${T("10:40")}`)).toEqual(["busy-cdn 10:35", "busy-cdn 10:25"]);
    expect(await list("", "busy-cdn")).toHaveLength(5);
    expect(await list("?group=Core%20platform", "calm")).toEqual(["calm 10:10"]);
  });

  it("answers an unknown vendor with a 404 problem and a bad parameter with a 400 naming it", async () => {
    const unknown = await get("listQuietDegradations", "?vendor=calm&vendor=nope");
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { detail: string }).detail).toContain('"nope"');
    expect((await get("listVendorQuietDegradations", "", "nope")).status).toBe(404);
    for (const [query, parameter] of [["?limit=0", "limit"], ["?cursor=zzz", "cursor"], ["?since=yesterday", "since"], ["?kind=quiet-degradation", "kind"]] as const) {
      const bad = await get("listQuietDegradations", query);
      expect(bad.status, query).toBe(400);
      expect(((await bad.json()) as { parameter?: string }).parameter, query).toBe(parameter);
    }
  });

  it("answers a repeated GET with 304 while the list is unchanged", async () => {
    const first = await get("listQuietDegradations");
    const etag = first.headers.get("etag") ?? "";
    const handler = api.listQuietDegradations as (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;
    const again = await handler(new Request(`${ORIGIN}/api/v1/quiet-degradations`, { headers: { "if-none-match": etag } }), { params: Promise.resolve({}) });
    expect(again.status).toBe(304);
  });
});
