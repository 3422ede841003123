import { type CaptureDerivation, deriveCapture, prepareObservations } from "@/lib/derive/derive-capture";
import type { IncidentRecord } from "@/lib/derive/incident-record";
import type { ParsedSnapshot } from "@/lib/derive/observation";
import { type SourceStanding, windowStartOf } from "@/lib/derive/presence";
import type { SourceProfile } from "@/lib/derive/source-profile";
import type { Change } from "@/lib/change";

export interface HarnessVersion {
  id: string;
  seq: number;
  source: string;
  observedAt: string;
  kinds: string[];
  changes: Change[];
}

/**
 * The derive stage driven without a database: records kept in a map, each source's standing
 * tracked as the store would, captures applied in the order given.
 */
export function deriveHarness(vendorName = "Acme") {
  const records = new Map<string, IncidentRecord>();
  const standings = new Map<string, SourceStanding>();
  const versions: HarnessVersion[] = [];
  return {
    records,
    versions,
    capture(source: string, profile: SourceProfile, observedAt: string, snapshot: ParsedSnapshot): CaptureDerivation {
      const observations = prepareObservations(snapshot);
      const unchanged = new Set(
        observations
          .filter((o) => {
            const record = records.get(o.incident.id);
            const view = record?.sources[source];
            return record?.presence === "listed" && view?.listed === true && view.hash === o.hash;
          })
          .map((o) => o.incident.id),
      );
      const own = standings.get(source) ?? { source, presence: profile.presence, lastLiveAt: null, windowStart: null };
      const derivation = deriveCapture({
        vendorName, source, observedAt, profile, observations, unread: snapshot.unread,
        records: new Map([...records].filter(([id]) => !unchanged.has(id))),
        unchanged,
        previouslyListed: [...records.values()].filter((r) => r.sources[source]?.listed).length,
        own,
        others: [...standings.values()].filter((s) => s.source !== source),
      });
      for (const d of derivation.incidents) {
        records.set(d.providerId, d.record);
        if (d.version) versions.push({ id: d.providerId, seq: d.version.seq, source, observedAt, kinds: d.version.kinds, changes: d.version.changes });
      }
      standings.set(source, { source, presence: profile.presence, lastLiveAt: observedAt, windowStart: windowStartOf(profile.presence, observations.map((o) => o.incident)) });
      return derivation;
    },
    kindsOf(id: string): string[][] {
      return versions.filter((v) => v.id === id).map((v) => v.kinds);
    },
  };
}
