/**
 * What one simulated vendor serves at a path and a time: the body, its ETag (a hash of the body)
 * and its Last-Modified (when that endpoint's content last changed, found by walking back the
 * scenario's change times). Bodies only change at change times, so each is rendered once.
 */
import { gzipSync } from "node:zlib";
import type { Incident } from "@/lib/incident";
import { sameGrid } from "@/simulator/components";
import { getWireFormat } from "@/simulator/formats";
import type { VendorView, WireFormat } from "@/simulator/formats/wire-format";
import { changeTimesBefore, stateSince } from "@/simulator/scenario";
import { fingerprintOf } from "@/simulator/seeded";
import { followUpRoutes, type SimVendor, viewOfState } from "@/simulator/world";

export interface EndpointContent {
  parser: string;
  contentType: string;
  body: Buffer;
  etag: string;
  lastModifiedMs: number;
}

interface Selection {
  parser: string;
  format: WireFormat;
  listed: Incident[];
  view: VendorView;
}

interface Rendered {
  parser: string;
  contentType: string;
  body: Buffer;
  fingerprint: string;
}

/** Past this many change times with an unchanged body, Last-Modified is the oldest one checked. */
const MAX_WALK = 400;
const CACHE_LIMIT = 512;
/** Enough views for one walk back, shared by every endpoint of the vendor. */
const VIEW_CACHE_LIMIT = 160;

/** Unchanged incidents are the same objects at every time (the scenario interns them). */
function sameListing(a: readonly Incident[], b: readonly Incident[]): boolean {
  return a.length === b.length && a.every((incident, i) => incident === b[i]);
}

export class VendorContent {
  private readonly latest = new Map<string, { since: number; rendered: Rendered | null }>();
  private readonly fingerprints = new Map<string, string | null>();
  private readonly lastModified = new Map<string, number>();
  private readonly gzipped = new WeakMap<Buffer, Buffer>();
  private readonly views = new Map<number, VendorView>();
  private readonly followUps = new WeakMap<VendorView, Map<string, string>>();

  constructor(private readonly vendor: SimVendor) {}

  /** The vendor's view at the state in force at `timeMs`. */
  viewAt(timeMs: number): VendorView {
    return this.viewSince(stateSince(this.vendor.scenario, timeMs));
  }

  /** The view of the state that began at `since`, a change time of the scenario. */
  private viewSince(since: number): VendorView {
    let view = this.views.get(since);
    if (!view) {
      view = viewOfState(this.vendor, since);
      this.remember(this.views, since, view, VIEW_CACHE_LIMIT);
    }
    return view;
  }

  /** The endpoint at `path`, or null when the vendor serves nothing there (404). */
  at(path: string, timeMs: number): EndpointContent | null {
    const since = stateSince(this.vendor.scenario, timeMs);
    const current = this.render(path, since);
    if (current === null) return null;
    return { ...current, etag: `"${current.fingerprint}"`, lastModifiedMs: this.lastChange(path, since, current.fingerprint) };
  }

  gzip(body: Buffer): Buffer {
    let zipped = this.gzipped.get(body);
    if (!zipped) {
      zipped = gzipSync(body);
      this.gzipped.set(body, zipped);
    }
    return zipped;
  }

  private select(path: string, since: number): Selection | null {
    const view = this.viewSince(since);
    let followUps = this.followUps.get(view);
    if (!followUps) {
      followUps = followUpRoutes(this.vendor, view.incidents);
      this.followUps.set(view, followUps);
    }
    const parser = this.vendor.routes.get(path) ?? followUps.get(path) ?? null;
    const format = parser === null ? undefined : getWireFormat(parser);
    const listed = format?.select(view, path) ?? null;
    return parser !== null && format && listed !== null ? { parser, format, listed, view } : null;
  }

  private lastChange(path: string, since: number, fingerprint: string): number {
    const key = `${since}|${path}`;
    const known = this.lastModified.get(key);
    if (known !== undefined) return known;
    const current = this.select(path, since);
    let result = since;
    let walked = 0;
    for (const earlier of changeTimesBefore(this.vendor.scenario, since - 1)) {
      if (++walked > MAX_WALK || current === null) break;
      const before = this.select(path, earlier);
      const same = before !== null && before.parser === current.parser && sameListing(before.listed, current.listed) && sameGrid(before.view.grid, current.view.grid);
      if (!same && this.fingerprintAt(path, earlier) !== fingerprint) break;
      result = this.lastModified.get(`${earlier}|${path}`) ?? earlier;
      if (result !== earlier) break;
    }
    this.remember(this.lastModified, key, result);
    return result;
  }

  /** Older bodies are only compared, so only their fingerprints are kept. */
  private fingerprintAt(path: string, since: number): string | null {
    const key = `${since}|${path}`;
    let fingerprint = this.fingerprints.get(key);
    if (fingerprint === undefined) {
      fingerprint = this.renderNow(path, since)?.fingerprint ?? null;
      this.remember(this.fingerprints, key, fingerprint);
    }
    return fingerprint;
  }

  /** The body at `since`; the latest one of each path is kept. */
  private render(path: string, since: number): Rendered | null {
    const latest = this.latest.get(path);
    if (latest && latest.since === since) return latest.rendered;
    const rendered = this.renderNow(path, since);
    this.remember(this.fingerprints, `${since}|${path}`, rendered?.fingerprint ?? null);
    this.remember(this.latest, path, { since, rendered });
    return rendered;
  }

  private renderNow(path: string, since: number): Rendered | null {
    const selection = this.select(path, since);
    if (selection === null) return null;
    const { parser, format, listed, view } = selection;
    const body = Buffer.from(format.render(listed, view, path), "utf8");
    return { parser, contentType: format.contentType, body, fingerprint: fingerprintOf(body) };
  }

  private remember<K, T>(map: Map<K, T>, key: K, value: T, limit = CACHE_LIMIT): void {
    if (map.size >= limit) {
      for (const old of [...map.keys()].slice(0, limit / 4)) map.delete(old);
    }
    map.set(key, value);
  }
}
