/**
 * Builds the command line, `npm start`'s supervisor and the web server ahead of time: one CommonJS
 * bundle each in dist/ (scripts/prebuilt.json names them), so a command starts without compiling
 * TypeScript. Packages stay external (better-sqlite3 is native, next is next). Run at install
 * (`prepare`) and by `npm run build`; scripts/launch.cjs rebuilds when the sources moved on.
 * Plain JavaScript: it has to run before anything is built.
 */
"use strict";
const fs = require("node:fs");
const path = require("node:path");

const ROOT = path.resolve(__dirname, "..");
const OUT_DIR = path.join(ROOT, "dist");
const MANIFEST = path.join(OUT_DIR, "build.json");
const PROGRAMS = require("./prebuilt.json");
/** Besides the sources the bundles were made of: what decides how they resolve and compile. */
const BUILD_FILES = ["package.json", "tsconfig.json", "scripts/build-cli.cjs", "scripts/prebuilt.json"];

function bundlePath(program) {
  return path.join(OUT_DIR, `${program}.cjs`);
}

/** A file as the manifest remembers it; any difference, older or newer, means it changed. */
function signature(file) {
  try {
    const stat = fs.statSync(path.join(ROOT, file));
    return `${stat.mtimeMs}:${stat.size}`;
  } catch {
    return "missing";
  }
}

/**
 * True when every bundle exists and none of the files they were built from changed since. A new
 * source file matters only through one that imports it, which changed, so stat'ing the recorded
 * inputs (about 120) is the whole check, a few milliseconds.
 */
function isBuildFresh() {
  let manifest;
  try {
    manifest = JSON.parse(fs.readFileSync(MANIFEST, "utf8"));
  } catch {
    return false;
  }
  if (!Object.keys(PROGRAMS).every((program) => fs.existsSync(bundlePath(program)))) return false;
  return Object.entries(manifest.inputs).every(([file, recorded]) => signature(file) === recorded);
}

function writeAtomically(file, contents) {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(temporary, contents);
    fs.renameSync(temporary, file);
  } finally {
    fs.rmSync(temporary, { force: true });
  }
}

/**
 * Build every bundle. Each file is renamed into place, so a command starting meanwhile loads a
 * whole old or new bundle; the manifest is removed first and written last. A source saved during
 * the build may be missing from it: then no manifest is written and the next command builds again.
 */
async function buildCli() {
  const esbuild = require("esbuild");
  const startedAt = Date.now();
  const result = await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: PROGRAMS,
    outdir: OUT_DIR,
    outExtension: { ".js": ".cjs" },
    bundle: true,
    packages: "external",
    platform: "node",
    target: "node20",
    format: "cjs",
    sourcemap: "linked",
    metafile: true,
    write: false,
    logLevel: "warning",
  });
  fs.mkdirSync(OUT_DIR, { recursive: true });
  // Without a manifest a command starting while the bundles are replaced builds them itself.
  fs.rmSync(MANIFEST, { force: true });
  for (const output of result.outputFiles) writeAtomically(output.path, output.contents);
  const files = [...Object.keys(result.metafile.inputs), ...BUILD_FILES];
  const inputs = Object.fromEntries(files.map((file) => [file, signature(file)]));
  const savedDuring = files.filter((file) => {
    const [mtime] = inputs[file].split(":");
    return Number(mtime) >= startedAt;
  });
  if (savedDuring.length > 0) {
    console.error(`redline: ${savedDuring[0]} changed during the build; the next command builds again`);
    return;
  }
  writeAtomically(MANIFEST, `${JSON.stringify({ builtAt: new Date(startedAt).toISOString(), inputs }, null, 1)}\n`);
}

module.exports = { PROGRAMS, ROOT, bundlePath, buildCli, isBuildFresh };

if (require.main === module) {
  buildCli().then(
    () => console.log(`redline: built ${Object.keys(PROGRAMS).map((program) => path.relative(ROOT, bundlePath(program))).join(", ")}`),
    (error) => {
      console.error(`redline: build failed: ${error instanceof Error ? error.message : String(error)}`);
      process.exitCode = 1;
    },
  );
}
