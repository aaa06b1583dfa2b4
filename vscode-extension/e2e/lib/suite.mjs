// One hub and one VS Code per test file (starting them costs ~20 s, so a file's tests share them and each
// works on tasks of its own), a screenshot of the page when a test fails, and the screenshots docs/vscode.md
// shows, written only when RH_E2E_SCREENSHOTS names a folder (npm run screenshots).
import { test, before, after } from "node:test";
import { join, resolve, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { Hub } from "./hub.mjs";
import { Workbench, skipUnlessReady } from "./workbench.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const FAILURES = process.env.RH_E2E_FAILURES ?? resolve(here, "../out/failures");
const SHOTS = process.env.RH_E2E_SCREENSHOTS ? resolve(process.env.RH_E2E_SCREENSHOTS) : undefined;

/**
 * Declares a file's tests. `settings` are extra VS Code settings; each test gets { hub, vscode, shot }.
 * Returns a function that declares one test.
 */
export function suite(settings = {}) {
  const skip = skipUnlessReady();
  if (skip) {
    console.log(`# skipping the end-to-end tests: ${skip}`);
  }
  const env = {};
  before(async () => {
    if (skip) {
      return;
    }
    const started = Date.now();
    env.hub = await Hub.start();
    const hubMs = Date.now() - started;
    env.vscode = await Workbench.start({
      "roundhouse.server.command": env.hub.bridgeScript,
      "roundhouse.server.args": [],
      "roundhouse.server.env": { ROUNDHOUSE_HOME: env.hub.home }, // where a hub terminal finds the hub
      ...settings,
    });
    const loaded = Date.now();
    await env.vscode.openRoundhouse(180000).catch(async (error) => {
      const file = join(FAILURES, `setup-${Date.now()}.png`);
      await env.vscode.screenshot(file).then(() => console.log(`# failure screenshot: ${file}`), () => undefined);
      const log = env.vscode.saveExtensionLog(file.replace(/\.png$/, ".log"));
      if (log) {
        console.log(`# the extension's log: ${log}`);
      }
      throw error;
    });
    console.log(`# setup: hub ${hubMs} ms, extension install ${env.vscode.timings.installExtensionMs} ms, workbench load ${env.vscode.timings.loadMs} ms, extension active and board read ${Date.now() - loaded} ms`);
  }, { timeout: 600000 });
  after(async () => {
    try {
      await env.vscode?.stop();
    } finally {
      await env.hub?.stop();
    }
  }, { timeout: 90000 });

  return (name, body, { timeout = 240000 } = {}) => test(name, { skip, timeout }, async () => {
    const started = Date.now();
    const shot = async (file, locator) => {
      if (SHOTS) {
        await env.vscode.screenshot(join(SHOTS, file), locator);
      }
    };
    try {
      await env.vscode.reset();
      await body({ hub: env.hub, vscode: env.vscode, page: env.vscode.page, shot });
    } catch (error) {
      const file = join(FAILURES, `${name.replace(/[^A-Za-z0-9]+/g, "-").slice(0, 80)}.png`);
      await env.vscode?.screenshot(file).then(() => console.log(`# failure screenshot: ${file}`)).catch((e) => console.log(`# no failure screenshot: ${e}`));
      const log = env.vscode?.saveExtensionLog(file.replace(/\.png$/, ".log"));
      if (log) {
        console.log(`# the extension's log: ${log}`);
      }
      throw error;
    } finally {
      console.log(`# ${name}: ${Date.now() - started} ms`);
    }
  });
}
