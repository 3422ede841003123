import type { RedlineDb } from "@/db/client";
import { getSource, listListedIncidentsInStatus, listSources, saveSource, type SourceRow } from "@/db/operations/poll-state";
import { recordFetches, type UnparsedFetch } from "@/db/record/record";
import type { CaptureOutcome } from "@/db/schema";
import type { VendorRow } from "@/db/settings/vendors";
import { sha256Hex } from "@/lib/canonicalize";
import { withoutCredentials } from "@/lib/url-credentials";
import { HttpError } from "@/scrapers/http/http-client";
import { type PoliteFetchDeps, politeGet } from "@/scrapers/http/polite-fetch";
import { ingestSnapshot } from "@/scrapers/ingest/ingest-snapshot";
import { getLivePlatform } from "@/scrapers/live";
import type { Endpoint } from "@/scrapers/live/live-platform";
import { getPlatform } from "@/scrapers/platforms";

export interface PollDeps extends PoliteFetchDeps {
  db: RedlineDb;
  /** How long before an incident page is read again for its postmortem. */
  followUpIntervalMs: number;
  now?: () => Date;
  /** Told after a capture recorded versions (its write committed); must not block or throw. */
  onVersionsRecorded?: (captureId: number) => void;
}

export interface EndpointResult {
  url: string;
  /** When the capture was observed. */
  observedAt: string;
  outcome: CaptureOutcome;
  error: string | null;
  /** The endpoint itself is gone or is not the format expected: trying the fallback may help. */
  permanent: boolean;
  retryAfterMs: number | null;
  versionsAdded: number;
}

export interface VendorPollResult {
  ok: boolean;
  error: string | null;
  retryAfterMs: number | null;
  endpoints: EndpointResult[];
  versionsAdded: number;
}

const EMPTY_HASH = sha256Hex(new Uint8Array());

/**
 * What a vendor's round knows across its endpoints: the sources as the round began (each endpoint is
 * fetched once a round, and a poll holds the vendor's lease), and the fetches not parsed, recorded
 * together before anything is ingested and at the round's end.
 */
export interface PollRound {
  sources: ReadonlyMap<string, Omit<SourceRow, "id">>;
  unparsed: UnparsedFetch[];
}

async function startRound(db: RedlineDb, vendorId: number): Promise<PollRound> {
  return { sources: await listSources(db, vendorId), unparsed: [] };
}

/** Record the round's fetches not parsed so far, in the order they were made. */
async function flushRound(db: RedlineDb, round: PollRound): Promise<void> {
  const fetches = round.unparsed.splice(0);
  await recordFetches(db, fetches);
}

/** Note a fetch that is not parsed: recorded with the round's others, or at once outside a round. */
async function recordWithoutBody(
  deps: PollDeps,
  vendor: VendorRow,
  endpoint: Endpoint,
  fetched: { observedAt: string; outcome: CaptureOutcome; error: string | null; hash: string; size: number | null },
  source: Omit<SourceRow, "id">,
  round: PollRound | undefined,
): Promise<void> {
  const { observedAt, outcome, error, hash, size } = fetched;
  const unparsed: UnparsedFetch = {
    capture: { vendorId: vendor.id, source: endpoint.url, platform: endpoint.platform, observedAt, hash, body: null, size, outcome, error, incidentCount: null, warnings: [] },
    source: { ...source, platform: endpoint.platform, lastFetchedAt: observedAt },
  };
  if (round) round.unparsed.push(unparsed);
  else await recordFetches(deps.db, [unparsed]);
}

/** The time now, or just after `after` when the clock has not moved past it (a coarse or simulated clock). */
function observedAfter(now: Date, after: string | undefined): string {
  const floor = after === undefined ? -Infinity : Date.parse(after) + 1;
  return new Date(Math.max(now.getTime(), floor)).toISOString();
}

/**
 * Fetch one endpoint with conditional GET and record what happened as a capture: a 304, or a
 * body identical to the last one, is "not-modified" and costs no parsing. `after`: the capture
 * is observed after that time, as it was fetched after what was observed then.
 */
export async function pollEndpoint(deps: PollDeps, vendor: VendorRow, endpoint: Endpoint, signal?: AbortSignal, after?: string, round?: PollRound): Promise<EndpointResult> {
  const clock = deps.now ?? (() => new Date());
  const now = () => new Date(observedAfter(clock(), after));
  const platform = getPlatform(endpoint.platform);
  if (!platform) throw new Error(`poll: vendor ${vendor.slug} plans unknown parser ${endpoint.platform}`);
  const known = round ? round.sources.get(endpoint.url) : await getSource(deps.db, vendor.id, endpoint.url);
  const source: Omit<SourceRow, "id"> = known ?? {
    vendorId: vendor.id, url: endpoint.url, platform: endpoint.platform,
    etag: null, lastModified: null, lastBodyHash: null, lastFetchedAt: null, lastStatus: null,
  };
  const base = { url: endpoint.url, permanent: false, retryAfterMs: null, versionsAdded: 0 };
  let response;
  try {
    response = await politeGet(deps, endpoint.url, { etag: source.etag, lastModified: source.lastModified }, signal);
  } catch (error) {
    const http = error instanceof HttpError ? error : null;
    const message = `${vendor.slug}: ${withoutCredentials(endpoint.url)}: ${error instanceof Error ? error.message : String(error)}`;
    const observedAt = now().toISOString();
    await recordWithoutBody(deps, vendor, endpoint, { observedAt, outcome: "failed", error: message, hash: EMPTY_HASH, size: null }, { ...source, lastStatus: http?.status ?? null }, round);
    return { ...base, observedAt, outcome: "failed", error: message, permanent: http !== null && !http.transient, retryAfterMs: http?.retryAfterMs ?? null };
  }
  const observedAt = now().toISOString();
  const validators = {
    etag: response.etag ?? source.etag,
    lastModified: response.lastModified ?? source.lastModified,
  };
  if (response.notModified) {
    // A 304 confirms the body last received: it continues the run of that content.
    await recordWithoutBody(deps, vendor, endpoint, { observedAt, outcome: "not-modified", error: null, hash: source.lastBodyHash ?? EMPTY_HASH, size: null }, { ...source, ...validators, lastStatus: 304 }, round);
    return { ...base, observedAt, outcome: "not-modified", error: null };
  }
  const hash = sha256Hex(response.body);
  if (hash === source.lastBodyHash) {
    await recordWithoutBody(deps, vendor, endpoint, { observedAt, outcome: "not-modified", error: null, hash, size: response.body.length }, { ...source, ...validators, lastStatus: response.status }, round);
    return { ...base, observedAt, outcome: "not-modified", error: null };
  }
  // What was fetched before it is recorded before it: captures are placed in the order observed.
  if (round) await flushRound(deps.db, round);
  const result = await ingestSnapshot(deps.db, { vendor, platform, source: endpoint.url, observedAt, body: response.body, notify: true });
  const ok = result.outcome === "ok";
  await saveSource(deps.db, {
    ...source,
    ...(ok ? validators : { etag: null, lastModified: null }),
    platform: endpoint.platform,
    lastBodyHash: ok ? hash : source.lastBodyHash,
    lastFetchedAt: observedAt,
    lastStatus: response.status,
  });
  if (result.versionsAdded > 0 && result.captureId !== null) deps.onVersionsRecorded?.(result.captureId);
  const error = ok ? null : `${withoutCredentials(endpoint.url)}: ${result.error ?? `${result.outcome} snapshot`}`;
  return { ...base, observedAt, outcome: result.outcome, error, permanent: !ok, versionsAdded: result.versionsAdded };
}

function firstError(results: readonly EndpointResult[]): EndpointResult | undefined {
  return results.find((r) => r.outcome === "failed" || r.outcome === "invalid");
}

/**
 * One polling round of a vendor: its planned endpoints one after another, the fallback when
 * they all fail for good (an API switched off), the component grid, then the incident pages worth
 * following. Only the listing decides whether the round failed: a grid or a page that cannot be
 * fetched is recorded as its own failed capture, and the vendor is polled on its interval as usual.
 */
export async function pollVendor(deps: PollDeps, vendor: VendorRow, signal?: AbortSignal): Promise<VendorPollResult> {
  const live = vendor.url ? getLivePlatform(vendor.platform) : undefined;
  if (!live || !vendor.url) {
    return { ok: false, error: `${vendor.slug}: no live platform ${vendor.platform} or no URL`, retryAfterMs: null, endpoints: [], versionsAdded: 0 };
  }
  const url = new URL(vendor.url);
  const plan = live.plan(url);
  const round = await startRound(deps.db, vendor.id);
  const primary: EndpointResult[] = [];
  let listing = primary;
  const grid: EndpointResult[] = [];
  const followUps: EndpointResult[] = [];
  try {
    for (const endpoint of plan.endpoints) {
      if (signal?.aborted) break;
      primary.push(await pollEndpoint(deps, vendor, endpoint, signal, undefined, round));
    }
    if (plan.fallback && primary.length > 0 && primary.every((r) => r.permanent)) {
      listing = [];
      for (const endpoint of plan.fallback) listing.push(await pollEndpoint(deps, vendor, endpoint, signal, undefined, round));
    }
    // Once the JSON API is off (the fallback is read), its grid endpoint is off too.
    if (listing === primary) {
      // Observed after the round's incidents even on a clock too coarse to tell: captures apply in time order.
      let after = primary.map((r) => r.observedAt).sort().at(-1);
      for (const endpoint of plan.grid ?? []) {
        if (signal?.aborted) break;
        const result = await pollEndpoint(deps, vendor, endpoint, signal, after, round);
        grid.push(result);
        after = result.observedAt;
      }
    }
    if (live.followUps && live.followUpStatuses && !signal?.aborted) {
      // Against the clock the fetch times were written by (the demo's simulated one, else real time).
      const due = (deps.now?.() ?? new Date()).getTime() - deps.followUpIntervalMs;
      // Only incidents the vendor still lists: a deleted one's page is gone, and one that rolled off the
      // listing (Statuspage keeps the 50 latest) would be read forever at a cost growing with the archive.
      const candidates = (await listListedIncidentsInStatus(deps.db, vendor.id, live.followUpStatuses)).map((i) => ({ id: i.providerId, status: i.status }));
      for (const endpoint of live.followUps(candidates, url)) {
        const fetched = round.sources.get(endpoint.url)?.lastFetchedAt;
        if (fetched && Date.parse(fetched) > due) continue;
        followUps.push(await pollEndpoint(deps, vendor, endpoint, signal, undefined, round));
      }
    }
  } finally {
    await flushRound(deps.db, round);
  }
  const failed = firstError(listing);
  const endpoints = [...primary, ...(listing === primary ? [] : listing), ...grid, ...followUps];
  return {
    ok: failed === undefined,
    error: failed?.error ?? null,
    retryAfterMs: listing.reduce<number | null>((m, r) => (r.retryAfterMs !== null && (m === null || r.retryAfterMs > m) ? r.retryAfterMs : m), null),
    endpoints,
    versionsAdded: endpoints.reduce((n, r) => n + r.versionsAdded, 0),
  };
}
