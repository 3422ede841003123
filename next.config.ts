import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Tests and benchmarks build into their own folder so they never race `npm start`'s build.
  distDir: process.env.REDLINE_NEXT_DIST_DIR ?? ".next",
  serverExternalPackages: ["better-sqlite3", "zstd-napi"],
  poweredByHeader: false,
  typedRoutes: false,
};

export default nextConfig;
