import fs from "node:fs";
import path from "node:path";
import type { Incident } from "@/lib/incident";
import { type ParseContext, type Platform, SnapshotError } from "@/scrapers/platforms/platform";
import { observedAtOf } from "@/tests/support/corpus-location";
import { getPlatform } from "@/scrapers/platforms";

/** The incident with this id, or a failure naming it. */
export function findIncident(incidents: readonly Incident[], id: string): Incident {
  const incident = incidents.find((i) => i.id === id);
  if (!incident) throw new Error(`incident ${id} not parsed`);
  return incident;
}

/** The SnapshotError a parse rejects with; anything else fails the test. */
export async function snapshotRejection(promise: Promise<unknown>): Promise<SnapshotError> {
  const error = await promise.then(() => null, (e: unknown) => e);
  if (!(error instanceof SnapshotError)) throw new Error(`expected a SnapshotError, got ${String(error)}`);
  return error;
}

/** The incidents a snapshot was read into (what could not be read left out). */
export async function parseIncidents(platform: Platform, body: Uint8Array, context: ParseContext): Promise<Incident[]> {
  return (await platform.parse(body, context)).observations.map((o) => o.incident);
}

/** Parse one corpus snapshot file as an import would: its name gives source and capture time. */
export function parseCorpusFile(platform: Platform, file: string, vendor: string): Promise<Incident[]> {
  return parseIncidents(platform, fs.readFileSync(file), { vendor, source: path.basename(file), observedAt: observedAtOf(file) });
}

/** A registered platform by name; the test fails clearly when it is not registered. */
export function platformNamed(name: string): Platform {
  const platform = getPlatform(name);
  if (!platform) throw new Error(`no ${name} platform`);
  return platform;
}
