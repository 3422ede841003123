import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const { buildCli, isBuildFresh } = require("../../scripts/build-cli.cjs") as { buildCli(): Promise<void>; isBuildFresh(): boolean };

/** The bundles tests start (REDLINE_BUNDLE, the e2e web server), rebuilt once per run when missing or older than their sources. */
export default async function setupCliBundle(): Promise<void> {
  if (!isBuildFresh()) await buildCli();
}
