import { describe, expect, it } from "vitest";
import { type Simulator, startSimulator } from "@/simulator/server";
import { getWireFormat } from "@/simulator/formats";
import { endpointsAt, SimulatorError, viewAt } from "@/simulator/world";
import { fetchRaw } from "@/tests/simulator/http-client";

const START = "2026-04-20T06:30:00.000Z";

/** Every body every vendor serves, by URL. */
async function allBodies(sim: Simulator): Promise<Map<string, string>> {
  const bodies = new Map<string, string>();
  for (const vendor of sim.vendors) {
    for (const endpoint of endpointsAt(vendor, Date.parse(sim.now()))) {
      bodies.set(endpoint.url, (await fetchRaw(endpoint.url)).body.toString("utf8"));
    }
  }
  return bodies;
}

/** URLs whose endpoint lists at least one incident: a body listing none (an idle summary) owes nothing to the seed. */
function listingUrls(sim: Simulator): Set<string> {
  const now = Date.parse(sim.now());
  return new Set(
    sim.vendors.flatMap((vendor) =>
      endpointsAt(vendor, now)
        .filter((e) => (getWireFormat(e.platform)?.select(viewAt(vendor, now), new URL(e.url).pathname)?.length ?? 0) > 0)
        .map((e) => e.url),
    ),
  );
}

describe("the simulator", () => {
  it("serves identical bodies from two runs with the same seed, and different ones with another seed", async () => {
    const first = await startSimulator({ count: 6, seed: 42, acceleration: 0, start: START, control: false });
    const specs = first.vendors.map((v) => ({ slug: v.slug, family: v.family, name: v.name, port: v.port }));
    const expected = await allBodies(first);
    const listing = listingUrls(first);
    await first.stop();
    const again = await startSimulator({ vendors: specs, seed: 42, acceleration: 0, start: START, control: false });
    const repeated = await allBodies(again);
    await again.stop();
    const other = await startSimulator({ vendors: specs, seed: 43, acceleration: 0, start: START, control: false });
    const reseeded = await allBodies(other);
    await other.stop();
    expect(expected.size).toBeGreaterThan(specs.length);
    expect(repeated).toEqual(expected);
    expect(listing.size).toBeGreaterThan(specs.length);
    expect([...listing].filter((url) => reseeded.get(url) === expected.get(url))).toEqual([]);
  });

  it("starts and stops 1,000 vendors in one process, each on its own port", async () => {
    const sim = await startSimulator({ count: 1000, acceleration: 3600, control: false });
    const ports = new Set(sim.vendors.map((v) => v.port));
    expect(ports.size).toBe(1000);
    const last = sim.vendors.at(-1);
    const served = await fetchRaw(last?.url ?? "");
    expect(served.status === 200 || served.status === 404).toBe(true);
    expect(sim.vendors.every((v) => v.baseUrl === `http://127.0.0.1:${v.port}`)).toBe(true);
    await sim.stop();
    const after = await fetchRaw(last?.url ?? "").then(() => "answered", (e: unknown) => (e as NodeJS.ErrnoException).code);
    expect(after).toBe("ECONNREFUSED");
  });

  it("refuses a family it cannot serve, naming it, and leaves no port open", async () => {
    const error = await startSimulator({ vendors: [{ slug: "x", family: "no-such-family" }], control: false }).then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(SimulatorError);
    expect((error as SimulatorError).message).toContain("no-such-family");
  });

  it("runs its clock at the acceleration given, from the start given", async () => {
    const sim = await startSimulator({ count: 1, acceleration: 0, start: START, control: false });
    expect(sim.now()).toBe(START);
    sim.setClock("2026-06-01T00:00:00Z");
    expect(sim.now()).toBe("2026-06-01T00:00:00.000Z");
    expect(sim.stateOf(sim.vendors[0]?.slug ?? "").length).toBeGreaterThan(0);
    await sim.stop();
  });
});
