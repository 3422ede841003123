/**
 * `npm start` past its migrate and build steps, which the test does itself (the e2e build, a
 * seeded database): the real supervisor over the real web server and poller, from the environment.
 */
import { runWebAndPoller } from "@/scripts/start";

void runWebAndPoller().then((code) => {
  process.exitCode = code;
});
