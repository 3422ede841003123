/**
 * The vendor simulator in-process: one HTTP server per simulated vendor on 127.0.0.1 (each vendor
 * its own origin), a shared simulated clock, faults settable per vendor at any time, a log of
 * every request, and a control server for use from another process (control-server.ts).
 */
import { createServer } from "node:http";
import type { Incident } from "@/lib/incident";
import type { CatchUpClock } from "@/lib/catch-up-clock";
import { SimClock } from "@/simulator/clock";
import { startControlServer } from "@/simulator/control-server";
import { type Fault, type FaultInput, parseFault } from "@/simulator/faults";
import { closeServer, listenLocal } from "@/simulator/listen";
import { VendorContent } from "@/simulator/vendor-content";
import { type RecordedRequest, vendorRequestListener } from "@/simulator/vendor-server";
import { createVendor, generateSpecs, defaultFamilies, type SimVendor, SimulatorError, type VendorSpec } from "@/simulator/world";

export interface SimulatorOptions {
  /** The vendors to simulate; or `count` vendors named sim-0001 … */
  vendors?: readonly VendorSpec[];
  count?: number;
  /** Live platform names given to generated vendors in turn; default: every family the simulator can serve that states whole incidents. */
  families?: readonly string[];
  /** Simulated time per real time; 1 is real time, 0 a frozen clock. Default 1. */
  acceleration?: number;
  /** Simulated time at start (ISO); default now. */
  start?: string;
  /** Stop the clock at real time, to run at real time from there; for a start in the past. */
  notAfterRealTime?: boolean;
  seed?: number;
  /** Control server on this port, vendor i on portBase + 1 + i; default: free ports. */
  portBase?: number;
  /** Serve the control endpoint (default true). */
  control?: boolean;
  faults?: Readonly<Record<string, FaultInput>>;
  /** Components each vendor lists (default eight; more add regions in a group of their own). */
  components?: number;
}

export interface Simulator {
  readonly vendors: readonly SimVendor[];
  /** http://127.0.0.1:<port> of the control server, or null when it is off. */
  readonly controlUrl: string | null;
  readonly seed: number;
  readonly acceleration: number;
  vendor(slug: string): SimVendor;
  setFault(slug: string, fault: FaultInput | null): void;
  faults(): Record<string, Fault>;
  setClock(time: string): void;
  now(): string;
  /** The clock's anchor, for a process that must keep the same time (the demo's poller). */
  clockAnchor(): CatchUpClock;
  /** The incidents the vendor shows now, newest first, in canonical form. */
  stateOf(slug: string): Incident[];
  requests(slug: string): readonly RecordedRequest[];
  stop(): Promise<void>;
}

/** Requests kept per vendor; the oldest are dropped past this, so a long demo stays small. */
const REQUEST_LOG_LIMIT = 10_000;

function specsOf(options: SimulatorOptions): VendorSpec[] {
  const specs = options.vendors ? [...options.vendors] : generateSpecs(options.count ?? 1, options.families ?? defaultFamilies());
  if (new Set(specs.map((s) => s.slug)).size !== specs.length) throw new SimulatorError("options", "simulator: vendor slugs must be unique");
  return specs;
}

export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const seed = options.seed ?? 1;
  const clock = new SimClock(options.start === undefined ? Date.now() : Date.parse(options.start), options.acceleration ?? 1, Date.now, options.notAfterRealTime);
  const specs = specsOf(options);
  const faults = new Map<string, Fault>();
  const logs = new Map<string, RecordedRequest[]>(specs.map((s) => [s.slug, []]));
  const host = {
    clock,
    faultOf: (slug: string) => faults.get(slug) ?? null,
    record(slug: string, request: RecordedRequest) {
      const log = logs.get(slug);
      if (log && log.length >= REQUEST_LOG_LIMIT) log.splice(0, log.length - REQUEST_LOG_LIMIT + 1);
      log?.push(request);
    },
  };
  const servers = specs.map(() => createServer());
  const stopServers = () => Promise.all(servers.map(closeServer)).then(() => undefined);
  const vendors: SimVendor[] = [];
  const contents = new Map<string, VendorContent>();
  try {
    const ports = await Promise.all(
      servers.map((server, i) => listenLocal(server, specs[i]?.port ?? (options.portBase === undefined ? 0 : options.portBase + 1 + i))),
    );
    specs.forEach((spec, i) => {
      const vendor = createVendor(spec, ports[i] ?? 0, seed, clock.nowMs(), options.components);
      const content = new VendorContent(vendor);
      servers[i]?.on("request", vendorRequestListener(vendor, content, host));
      vendors.push(vendor);
      contents.set(vendor.slug, content);
    });
  } catch (error) {
    await stopServers();
    if (error instanceof SimulatorError) throw error;
    throw new SimulatorError("listen", `simulator: could not listen: ${(error as Error).message}`, { cause: error });
  }

  const bySlug = new Map(vendors.map((v) => [v.slug, v]));
  const vendorOf = (slug: string): SimVendor => {
    const vendor = bySlug.get(slug);
    if (!vendor) throw new SimulatorError("vendor", `simulator: no vendor "${slug}"`);
    return vendor;
  };
  const simulator: Simulator = {
    vendors,
    controlUrl: null,
    seed,
    acceleration: clock.acceleration,
    vendor: vendorOf,
    setFault(slug, fault) {
      vendorOf(slug);
      if (fault === null) faults.delete(slug);
      else faults.set(slug, parseFault(fault));
    },
    faults: () => Object.fromEntries(faults),
    setClock: (time) => clock.set(time),
    now: () => clock.now(),
    clockAnchor: () => clock.anchor(),
    stateOf: (slug) => [...(contents.get(vendorOf(slug).slug)?.viewAt(clock.nowMs()).incidents ?? [])],
    requests: (slug) => [...(logs.get(vendorOf(slug).slug) ?? [])],
    stop: stopServers,
  };
  try {
    for (const [slug, fault] of Object.entries(options.faults ?? {})) simulator.setFault(slug, fault);
  } catch (error) {
    await stopServers();
    throw error;
  }
  if (options.control === false) return simulator;
  const control = await startControlServer(simulator, options.portBase ?? 0).catch(async (error: unknown) => {
    await stopServers();
    throw new SimulatorError("listen", `simulator: could not start the control server: ${(error as Error).message}`, { cause: error });
  });
  return {
    ...simulator,
    controlUrl: control.url,
    stop: async () => {
      await Promise.all([closeServer(control.server), stopServers()]);
    },
  };
}
