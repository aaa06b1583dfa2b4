// Ending what a test file started: a child process (SIGTERM, then SIGKILL after a grace) and its scratch folder.
import { rmSync } from "node:fs";
import { once } from "node:events";

/** Stops `child`: SIGTERM, and SIGKILL when it has not exited within `graceMs`. */
export async function stopProcess(child, graceMs) {
  if (child.exitCode !== null) {
    return;
  }
  const exited = once(child, "exit");
  child.kill("SIGTERM");
  await Promise.race([exited, new Promise((r) => setTimeout(r, graceMs))]);
  if (child.exitCode === null) {
    child.kill("SIGKILL");
  }
}

/** Removes a test's scratch folder, unless RH_E2E_KEEP asks to keep it for a look. */
export function removeUnlessKept(root) {
  if (process.env.RH_E2E_KEEP) {
    console.log(`# kept ${root} (RH_E2E_KEEP)`);
  } else {
    rmSync(root, { recursive: true, force: true });
  }
}
