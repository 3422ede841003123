/**
 * The simulated vendors: each has a slug, a live platform (family), its own 127.0.0.1 origin and
 * a scenario. It serves exactly what Redline's live plan for that family polls (plus the plan's
 * fallback, grid and follow-up pages), each endpoint in the format of the parser the plan names.
 */
import { statesEveryField } from "@/lib/derive/source-profile";
import type { Incident } from "@/lib/incident";
import { type Endpoint, type LivePlatform, plannedEndpoints } from "@/scrapers/live/live-platform";
import { getLivePlatform, LIVE_PLATFORMS } from "@/scrapers/live";
import { getPlatform } from "@/scrapers/platforms";
import { getWireFormat } from "@/simulator/formats";
import type { VendorView } from "@/simulator/formats/wire-format";
import { createScenario, gridScriptAt, type Scenario, stateAt, stateSince } from "@/simulator/scenario";
import { byComponentId, componentList, gridAt } from "@/simulator/components";

export type SimulatorErrorKind = "family" | "vendor" | "listen" | "options";

export class SimulatorError extends Error {
  readonly kind: SimulatorErrorKind;
  constructor(kind: SimulatorErrorKind, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.kind = kind;
    this.name = "SimulatorError";
  }
}

export interface VendorSpec {
  slug: string;
  family: string;
  name?: string;
  /** A fixed port; otherwise the simulator's port base, or any free port. */
  port?: number;
}

export interface SimVendor {
  slug: string;
  name: string;
  family: string;
  port: number;
  /** http://127.0.0.1:<port>, the vendor's origin. */
  baseUrl: string;
  /** What Redline polls: the base URL, or the endpoint itself for a family that reads one exact URL. */
  url: string;
  scenario: Scenario;
  live: LivePlatform;
  /** The plan's endpoints, fallbacks and grid by path. */
  routes: ReadonlyMap<string, string>;
}

const PROBE_URL = new URL("http://127.0.0.1:1/");

function planEndpoints(live: LivePlatform, url: URL): Endpoint[] {
  return plannedEndpoints(live.plan(url));
}

/** True when the family's plan just echoes the URL it is given (an import platform polled as is). */
function readsExactUrl(live: LivePlatform): boolean {
  const endpoints = live.plan(PROBE_URL).endpoints;
  return endpoints.length === 1 && endpoints[0]?.url === PROBE_URL.toString();
}

/** Live platforms whose every endpoint has a wire format: what the simulator can play. */
export function servableFamilies(): string[] {
  return LIVE_PLATFORMS.filter((live) => planEndpoints(live, PROBE_URL).every((e) => getWireFormat(e.platform) !== undefined)).map(
    (live) => live.name,
  );
}

/**
 * The families generated vendors take by default: the servable ones, less bare parsers that state
 * only some fields of incidents another source lists (an Atom fallback, an incident page).
 */
export function defaultFamilies(): string[] {
  return servableFamilies().filter((name) => {
    const live = getLivePlatform(name);
    const [only] = live && readsExactUrl(live) ? live.plan(PROBE_URL).endpoints : [];
    const profile = only === undefined ? undefined : getPlatform(only.platform)?.profile;
    return profile === undefined || statesEveryField(profile);
  });
}

/** Slugs sim-0001, sim-0002 …, families taken in turn. */
export function generateSpecs(count: number, families: readonly string[]): VendorSpec[] {
  if (families.length === 0) throw new SimulatorError("options", "simulator: no families to cycle through");
  return Array.from({ length: count }, (_, i) => {
    const n = String(i + 1).padStart(4, "0");
    return { slug: `sim-${n}`, family: families[i % families.length] ?? "", name: `Simulated Vendor ${n}` };
  });
}

type ViewedVendor = Pick<SimVendor, "slug" | "name" | "baseUrl" | "scenario">;

/** What the vendor shows at a time, as its endpoints see it. */
export function viewAt(vendor: ViewedVendor, time: number): VendorView {
  return viewOfState(vendor, stateSince(vendor.scenario, time));
}

/** The view of the state that began at `since`, one of the scenario's change times. */
export function viewOfState(vendor: ViewedVendor, since: number): VendorView {
  const incidents = stateAt(vendor.scenario, since);
  const script = gridScriptAt(vendor.scenario, since);
  const components = [...componentList(vendor.slug, vendor.scenario.seed, vendor.scenario.components), ...script.added].sort(byComponentId);
  return { vendor: vendor.slug, name: vendor.name, baseUrl: vendor.baseUrl, at: new Date(since).toISOString(), incidents, components, grid: gridAt(components, incidents, script.states) };
}

export function createVendor(spec: VendorSpec, port: number, seed: number, startMs: number, components?: number): SimVendor {
  const live = getLivePlatform(spec.family);
  if (!live) throw new SimulatorError("family", `simulator: unknown family "${spec.family}" for vendor ${spec.slug}`);
  const missing = planEndpoints(live, PROBE_URL).find((e) => getWireFormat(e.platform) === undefined);
  if (missing) throw new SimulatorError("family", `simulator: family "${spec.family}" needs format "${missing.platform}", which has no serializer`);
  const baseUrl = `http://127.0.0.1:${port}`;
  const name = spec.name ?? spec.slug;
  const scenario = createScenario(spec.slug, seed, baseUrl, components);
  let url = `${baseUrl}/`;
  const [only] = live.plan(PROBE_URL).endpoints;
  const format = only ? getWireFormat(only.platform) : undefined;
  if (readsExactUrl(live) && format?.defaultPath) url = baseUrl + format.defaultPath(viewAt({ slug: spec.slug, name, baseUrl, scenario }, startMs));
  const routes = new Map(planEndpoints(live, new URL(url)).map((e) => [new URL(e.url).pathname, e.platform]));
  return { slug: spec.slug, name, family: spec.family, port, baseUrl, url, scenario, live, routes };
}

/** The follow-up pages the vendor serves given what it shows, by path (Statuspage postmortem pages). */
export function followUpRoutes(vendor: SimVendor, incidents: readonly Incident[]): Map<string, string> {
  const endpoints = vendor.live.followUps?.(incidents, new URL(vendor.url)) ?? [];
  return new Map(endpoints.map((e) => [new URL(e.url).pathname, e.platform]));
}

/** Every URL the vendor serves at a time: plan endpoints, fallbacks and follow-up pages. */
export function endpointsAt(vendor: SimVendor, time: number): Endpoint[] {
  const endpoints = planEndpoints(vendor.live, new URL(vendor.url));
  return [...endpoints, ...(vendor.live.followUps?.(viewAt(vendor, time).incidents, new URL(vendor.url)) ?? [])];
}
