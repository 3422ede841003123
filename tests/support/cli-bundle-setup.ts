import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const { buildCli, isBuildFresh } = require("../../scripts/build-cli.cjs") as { buildCli(): Promise<void>; isBuildFresh(): boolean };

/** The CLI bundle tests start (REDLINE_BUNDLE), rebuilt once per run when missing or older than its sources. */
export default async function setupCliBundle(): Promise<void> {
  if (!isBuildFresh()) await buildCli();
}
