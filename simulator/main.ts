/**
 * npm run simulator -- --vendors 20 --acceleration 3600 [--port-base 41000] [--seed 1]
 *   [--families statuspage,gcp] [--start 2026-03-01T00:00:00Z] [--fault sim-0003=503 …]
 * Starts the vendor simulator, prints one line per vendor (slug, family, base URL, URL to poll) and the
 * control URL, and runs until SIGINT or SIGTERM.
 */
import { parseArgs } from "node:util";
import { z } from "zod";
import { FAULT_KINDS, type Fault, parseFaultShorthand } from "@/simulator/faults";
import { startSimulator } from "@/simulator/server";
import { servableFamilies } from "@/simulator/world";

const optionsSchema = z.object({
  vendors: z.coerce.number().int().min(1).max(5000).default(20),
  acceleration: z.coerce.number().min(0).default(1),
  "port-base": z.coerce.number().int().min(1).max(65_000).optional(),
  seed: z.coerce.number().int().default(1),
  families: z.string().optional(),
  start: z.iso.datetime({ offset: true }).optional(),
  fault: z.array(z.string()).default([]),
});

function usage(): string {
  return [
    "usage: npm run simulator -- --vendors <n> --acceleration <x> [--port-base <port>] [--seed <n>]",
    "         [--families <a,b>] [--start <ISO time>] [--fault <slug>=<fault>]…",
    `families: ${servableFamilies().join(", ")}`,
    `faults: ${FAULT_KINDS.join(", ")} (e.g. 503, 429:30, trickle:200, oversize:1048576)`,
  ].join("\n");
}

function parseFaults(specs: readonly string[]): Record<string, Fault> {
  const faults: Record<string, Fault> = {};
  for (const spec of specs) {
    const at = spec.indexOf("=");
    if (at <= 0) throw new Error(`--fault expects <slug>=<fault>, got "${spec}"`);
    faults[spec.slice(0, at)] = parseFaultShorthand(spec.slice(at + 1));
  }
  return faults;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      vendors: { type: "string" },
      acceleration: { type: "string" },
      "port-base": { type: "string" },
      seed: { type: "string" },
      families: { type: "string" },
      start: { type: "string" },
      fault: { type: "string", multiple: true },
      help: { type: "boolean" },
    },
    strict: true,
  });
  if (values.help) {
    console.log(usage());
    return;
  }
  const options = optionsSchema.parse(values);
  const simulator = await startSimulator({
    count: options.vendors,
    acceleration: options.acceleration,
    portBase: options["port-base"],
    seed: options.seed,
    families: options.families?.split(",").map((f) => f.trim()).filter((f) => f !== ""),
    start: options.start,
    faults: parseFaults(options.fault),
  });
  // The URL to poll is the base URL except for families that read one exact endpoint.
  for (const v of simulator.vendors) console.log(`${v.slug}\t${v.family}\t${v.baseUrl}\t${v.url}`);
  console.log(`control\t${simulator.controlUrl ?? "-"}\tsimulated time ${simulator.now()}, acceleration ${options.acceleration}`);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`simulator: ${signal}, stopping`);
    simulator.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error("simulator: stopping failed:", error);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
}

main().catch((error: unknown) => {
  const message = error instanceof z.ZodError ? z.prettifyError(error) : error instanceof Error ? error.message : String(error);
  console.error(`simulator: ${message}\n${usage()}`);
  process.exit(2);
});
