/**
 * `npm start` past its migrate and build steps, which the test does itself (the e2e build, a
 * seeded database): the real supervisor over every role's real process, from the environment.
 */
import { superviseRoles } from "@/scripts/start";

void superviseRoles().then((code) => {
  process.exitCode = code;
});
