/** BENCH_CPU_PROF=<dir>: the node arguments that make a benchmark's child process write a CPU profile there (node --cpu-prof). */
export function cpuProfileArgs(): string[] {
  const dir = process.env.BENCH_CPU_PROF;
  return dir ? ["--cpu-prof", "--cpu-prof-dir", dir] : [];
}
