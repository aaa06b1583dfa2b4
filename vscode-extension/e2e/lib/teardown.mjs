// Ending what a test file started: a child process (SIGTERM, then SIGKILL after a grace) and its scratch folder.
import { rmSync } from "node:fs";
import { once } from "node:events";

/**
 * Stops `child`: SIGTERM, and SIGKILL when it has not exited within `graceMs`. With `group` (a child spawned
 * `detached`, so it leads its own process group) the signals go to the whole group, and what is left of the
 * group is killed once the leader has gone: a program that is not ours (code-server) must not leave helpers
 * behind. Our ends of the child's pipes are closed at the end either way, so a descendant that still holds
 * them cannot keep this test file's process alive.
 */
export async function stopProcess(child, graceMs, { group = false } = {}) {
  const ended = () => child.exitCode !== null || child.signalCode !== null;
  if (!ended()) {
    const exited = once(child, "exit");
    signal(child, "SIGTERM", group);
    let timer;
    await Promise.race([exited, new Promise((r) => { timer = setTimeout(r, graceMs); })]);
    clearTimeout(timer);
    if (!ended()) {
      signal(child, "SIGKILL", group);
      await exited;
    }
  }
  if (group) {
    signal(child, "SIGKILL", true);
  }
  for (const stream of [child.stdin, child.stdout, child.stderr]) {
    stream?.destroy();
  }
}

function signal(child, name, group) {
  try {
    if (group) {
      process.kill(-child.pid, name);
    } else {
      child.kill(name);
    }
  } catch (e) {
    if (e.code !== "ESRCH") {
      throw e;
    }
  }
}

/** Settles within `ms`: `promise`'s value, or undefined when it has not settled by then (a close that hangs). */
export async function within(ms, promise) {
  let timer;
  const late = new Promise((r) => { timer = setTimeout(r, ms); });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
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
