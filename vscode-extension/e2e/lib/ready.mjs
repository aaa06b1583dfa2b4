// Exits 0 when the end-to-end tests can run here; otherwise prints what is missing and exits 2. The app
// module's VscodeEndToEndTest asks first, so it can skip with that sentence on a developer's machine (and
// fail under CI) rather than count skipped node tests.
import { missingPrerequisite } from "./workbench.mjs";

const missing = missingPrerequisite();
if (missing !== undefined) {
  console.log(missing);
  process.exit(2);
}
console.log("ready");
