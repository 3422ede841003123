import path from "node:path";
import { describe, expect, it } from "vitest";
import { supervise } from "@/scripts/supervise";

describe("supervise", () => {
  it("stops the others and fails when one process dies, so nothing runs half-alive", async () => {
    const started = Date.now();
    const code = await supervise(
      [
        { name: "dies", command: process.execPath, args: ["-e", "setTimeout(() => process.exit(3), 200)"] },
        { name: "lives", command: process.execPath, args: ["-e", "setInterval(() => {}, 1000)"] },
      ],
      path.resolve(__dirname),
    );
    expect(code).toBe(3);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("fails even when the process that stopped exited with success", async () => {
    const code = await supervise(
      [
        { name: "quits", command: process.execPath, args: ["-e", "process.exit(0)"] },
        { name: "lives", command: process.execPath, args: ["-e", "setInterval(() => {}, 1000)"] },
      ],
      path.resolve(__dirname),
    );
    expect(code).toBe(1);
  });
});
