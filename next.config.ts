import fs from "node:fs";
import path from "node:path";
import type { NextConfig } from "next";

/**
 * Turbopack resolves packages only inside its root: a git worktree whose node_modules links to
 * another checkout needs a root that holds both.
 */
function turbopackRoot(): string {
  const project = __dirname;
  const modules = fs.realpathSync(path.join(project, "node_modules"));
  let root = project;
  while (!`${modules}${path.sep}`.startsWith(`${root}${path.sep}`) && path.dirname(root) !== root) root = path.dirname(root);
  return root;
}

const nextConfig: NextConfig = {
  // Tests and benchmarks build into their own folder so they never race `npm start`'s build.
  distDir: process.env.REDLINE_NEXT_DIST_DIR ?? ".next",
  serverExternalPackages: ["better-sqlite3", "zstd-napi"],
  poweredByHeader: false,
  typedRoutes: false,
  turbopack: { root: turbopackRoot() },
};

export default nextConfig;
