/** NotifiedChanges made without a database, from fixture incidents, valid against the API's version-detail schema. */
import { versionDetailSchema } from "@/lib/api/schemas";
import type { ChangeKindName } from "@/lib/change-kinds";
import type { Incident } from "@/lib/incident";
import type { NotifiedChange } from "@/lib/notify/outbound-message";
import { makeIncident } from "@/tests/support/incidents";

export interface ChangeFixture {
  vendor?: string;
  vendorName?: string;
  incident?: Partial<Incident>;
  seq?: number;
  kinds?: ChangeKindName[];
  headline?: string;
}

export function makeNotifiedChange(fixture: ChangeFixture = {}): NotifiedChange {
  const vendor = fixture.vendor ?? "acme";
  const incident = makeIncident({ vendor, ...fixture.incident });
  const seq = fixture.seq ?? 1;
  const base = `https://redline.test/vendors/${vendor}/incidents/${encodeURIComponent(incident.id)}`;
  const headline = fixture.headline ?? "We are investigating elevated error rates on the API.";
  const version = versionDetailSchema.parse({
    incident: { vendor, id: incident.id, key: incident.id, title: incident.title },
    seq,
    observedAt: "2026-03-01T10:05:00.000Z",
    hash: `hash-${seq}`,
    kinds: fixture.kinds ?? ["incident-new"],
    summary: `New incident: ${incident.title}. ${headline}`,
    headline,
    changes: [{ field: "status", kind: "added", before: null, after: incident.status }],
    snapshot: { incident, presence: "listed" },
    links: {
      self: `https://redline.test/api/v1/vendors/${vendor}/incidents/${incident.id}/versions/${seq}`,
      html: `${base}/versions/${seq}`,
      incident: base,
      markdown: `${base}/versions/${seq}/export.md`,
      json: `${base}/versions/${seq}/export.json`,
    },
  });
  return { vendorName: fixture.vendorName ?? "Acme Cloud", version };
}
