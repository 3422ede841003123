import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { ParsedSnapshot } from "@/lib/derive/observation";
import { incidentSchema, type Incident } from "@/lib/incident";
import { azurePlatform } from "@/scrapers/platforms/azure";
import type { ParseContext } from "@/scrapers/platforms/platform";
import { findIncident, snapshotRejection, parseIncidents } from "@/tests/support/parsing";
import { statedKeys } from "@/tests/simulator/carried";

const FIXTURE = path.join(__dirname, "..", "..", "fixtures", "azure", "feed-handwritten.rss");
const ctx: ParseContext = { vendor: "azure", source: "feed", observedAt: "2026-03-02T12:00:00.000Z" };

function parseText(text: string): Promise<Incident[]> {
  return parseIncidents(azurePlatform, new TextEncoder().encode(text), ctx);
}

function read(text: string): Promise<ParsedSnapshot> {
  return azurePlatform.parse(new TextEncoder().encode(text), ctx);
}

function channel(items: string): string {
  return `<?xml version="1.0"?><rss version="2.0"><channel><title>Azure Status</title>${items}</channel></rss>`;
}

describe("azure status RSS", () => {
  it("maps an event keyed by its guid, with categories as components and the title's last clause as status", async () => {
    const vm = findIncident(await parseIncidents(azurePlatform, fs.readFileSync(FIXTURE), ctx), "HANDWRITTEN-VM-WEU");
    expect(vm).toMatchObject({
      kind: "incident",
      title: "Virtual Machines - West Europe - Investigating",
      status: "active",
      url: "https://azure.status.microsoft/en-us/status",
      components: [
        { id: "Virtual Machines", name: "Virtual Machines" },
        { id: "West Europe", name: "West Europe" },
      ],
    });
    expect(incidentSchema.safeParse(vm).success).toBe(true);
  });

  it("keeps the narrative as text, script dropped, at its bare-Z pubDate", async () => {
    const vm = findIncident(await parseIncidents(azurePlatform, fs.readFileSync(FIXTURE), ctx), "HANDWRITTEN-VM-WEU");
    expect(vm.updates).toEqual([
      {
        id: "~20260302T102909Z",
        status: null,
        body: "Impact Statement: Starting at 09:40 UTC on 02 Mar 2026, some customers cannot start VMs.\n\nThis message was last updated at 10:29 UTC.",
        createdAt: "2026-03-02T10:29:09.000Z",
        displayAt: "2026-03-02T10:29:09.000Z",
      },
    ]);
  });

  it("keys an event without a guid by its tracking ID and reads [RESOLVED] and +0100", async () => {
    const storage = findIncident(await parseIncidents(azurePlatform, fs.readFileSync(FIXTURE), ctx), "2TWN-VT0");
    expect(storage).toMatchObject({ title: "Storage - East US - Mitigated", status: "resolved" });
    expect(storage.updates[0]?.createdAt).toBe("2026-03-02T08:15:00.000Z");
  });

  it("lists current events only and states the narrative as the latest of its updates", () => {
    expect(azurePlatform.profile.presence).toEqual({ kind: "active" });
    expect(statedKeys(azurePlatform)).toEqual(["title", "status", "url", "components", "updates"]);
    expect(azurePlatform.profile.updates).toMatchObject({ list: "partial", text: "rendered", createdAt: false });
  });

  it("reads an empty channel as no events, not as a failure", async () => {
    expect(await parseText(channel(""))).toEqual([]);
  });

  it("reads items that share the page link and have no guid or tracking ID as unreadable, and the others as usual", async () => {
    const shared = "<item><title>x</title><link>https://azure.status.microsoft/en-us/status</link></item>";
    const snapshot = await read(channel(shared + shared + "<item><guid>g</guid><title>y</title></item>"));
    expect(snapshot.unread).toEqual([{ id: null, path: "items[0]" }, { id: null, path: "items[1]" }]);
    expect(snapshot.warnings).toEqual([
      { path: "items[0]", message: "item has no guid, tracking ID or link of its own" },
      { path: "items[1]", message: "item has no guid, tracking ID or link of its own" },
    ]);
    expect(snapshot.observations.map((o) => [o.path, o.incident.id])).toEqual([["items[2]", "g"]]);
  });

  it("reads an item with no guid, tracking ID or link as unreadable", async () => {
    const snapshot = await read(channel("<item><title>Storage - East US - Investigating</title></item>"));
    expect(snapshot.unread).toEqual([{ id: null, path: "items[0]" }]);
  });

  it("skips the narrative of an item whose pubDate is unreadable, naming the path, and reads the rest", async () => {
    const snapshot = await read(channel("<item><guid>g</guid><title>VMs - Mitigated</title><description>Fixed.</description><pubDate>soon</pubDate></item>"));
    expect(snapshot.warnings.map((w) => w.path)).toEqual(["items[0].pubDate"]);
    expect(snapshot.observations[0]).toMatchObject({ partialUpdates: true, unstated: [], incident: { status: "mitigated", updates: [] } });
  });

  it("keeps the first of two items with one tracking ID", async () => {
    const item = (title: string) => `<item><title>${title}</title><description>Tracking ID: 2TWN-VT0</description></item>`;
    const snapshot = await read(channel(item("Storage - Investigating") + item("Storage - Mitigated")));
    expect(snapshot.observations.map((o) => [o.incident.id, o.incident.status])).toEqual([["2TWN-VT0", "active"]]);
  });

  it("treats an empty body as a failed fetch and an error page as unparseable", async () => {
    expect((await snapshotRejection(parseText(" "))).kind).toBe("empty");
    expect((await snapshotRejection(parseText("<Error><Code>AccessDenied</Code></Error>"))).kind).toBe("unparseable");
  });
});
