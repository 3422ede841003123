/**
 * One of several processes contending for a lock (tests/e2e/lock.test.ts): takes it `rounds`
 * times, and inside it checks that no other process is inside (an exclusive-create marker).
 * Usage: node --import tsx lock-contender.ts <lockDir> <rounds> <log>
 */
import fs from "node:fs";
import { setImmediate as tick } from "node:timers/promises";
import { withLock } from "./lock";

const [lockDir, rounds, log] = process.argv.slice(2) as [string, string, string];
const inside = `${lockDir}.inside`;
async function main(): Promise<void> {
  for (let round = 0; round < Number(rounds); round++) {
    await withLock(
      lockDir,
      async () => {
        fs.writeFileSync(inside, String(process.pid), { flag: "wx" });
        await tick();
        fs.appendFileSync(log, `${process.pid} ${round}\n`);
        fs.unlinkSync(inside);
      },
      1,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
