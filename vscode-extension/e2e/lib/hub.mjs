// A real Roundhouse hub for one test file: `roundhouse serve --port 0` in a fresh ROUNDHOUSE_HOME on
// 127.0.0.1, a project "web" on the script driver, the hub's operations over HTTP (what "another face" does),
// and the command line of `roundhouse lsp --no-start` for the extension, as a small shell script that refuses
// to start while a flag file exists (to fail a bridge start on purpose).
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync, chmodSync, existsSync, rmSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { removeUnlessKept, stopProcess } from "./teardown.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "../../..");

/** The command that runs roundhouse: RH_ROUNDHOUSE_CMD (JSON array, set by the app module's test) or the repo's launcher. */
export function roundhouseCommand() {
  const given = process.env.RH_ROUNDHOUSE_CMD;
  return given ? JSON.parse(given) : [join(repo, "roundhouse")];
}

function shellQuote(word) {
  return `'${String(word).replace(/'/g, `'\\''`)}'`;
}

export class Hub {
  /** Starts a hub in a new home with one project (`web` unless named); resolves once it listens. */
  static async start({ project = "web" } = {}) {
    const root = mkdtempSync(join(tmpdir(), "rh-e2e-hub-"));
    const home = join(root, "home");
    const projectDir = join(root, project);
    mkdirSync(home);
    mkdirSync(projectDir);
    const [program, ...args] = roundhouseCommand();
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("ROUNDHOUSE_")));
    env.ROUNDHOUSE_HOME = home;
    const child = spawn(program, [...args, "serve", "--port", "0"], { env, stdio: ["ignore", "ignore", "pipe"] });
    const listening = new Promise((resolvePromise, reject) => {
      let err = "";
      const timer = setTimeout(() => reject(new Error(`the hub did not say it listens within 5 minutes (a first run of the launcher builds the jar):\n${err}`)), 300000);
      child.stderr.setEncoding("utf8");
      child.stderr.on("data", (chunk) => {
        err += chunk;
        const match = /roundhouse \S+ listening on (http:\/\/\S+)/.exec(err);
        if (match) {
          clearTimeout(timer);
          resolvePromise(match[1]);
        }
      });
      child.on("exit", (code) => reject(new Error(`the hub exited (${code}) before listening:\n${err}`)));
    });
    try {
      const url = await listening;
      child.stderr.resume();
      const hub = new Hub(root, home, projectDir, child, url, readFileSync(join(home, "token"), "utf8").trim());
      hub.bridgeScript = hub.writeBridgeScript(program, args);
      await hub.op("project_create", { name: project, path: projectDir, default_agent: "script" });
      return hub;
    } catch (error) {
      await stopProcess(child, 5000); // no hub outlives a failed start
      rmSync(root, { recursive: true, force: true });
      throw error;
    }
  }

  constructor(root, home, projectDir, child, url, token) {
    Object.assign(this, { root, home, projectDir, child, url, token });
    this.refuseFlag = join(root, "refuse-bridge");
  }

  writeBridgeScript(program, args) {
    const script = join(this.root, "roundhouse-lsp.sh");
    writeFileSync(script, [
      "#!/bin/sh",
      "# the extension's bridge: roundhouse lsp on this hub; refuses to start while the flag file exists",
      `if [ -e ${shellQuote(this.refuseFlag)} ]; then echo "e2e: this bridge start is refused on purpose" >&2; exit 3; fi`,
      `ROUNDHOUSE_HOME=${shellQuote(this.home)} exec ${[program, ...args, "lsp", "--no-start"].map(shellQuote).join(" ")}`,
      "",
    ].join("\n"));
    chmodSync(script, 0o755);
    return script;
  }

  /** Makes the next bridge starts fail (true) or work again (false). */
  refuseBridge(refuse) {
    if (refuse) {
      writeFileSync(this.refuseFlag, "");
    } else if (existsSync(this.refuseFlag)) {
      rmSync(this.refuseFlag);
    }
  }

  /** Calls a hub operation as the user; returns its output or throws with the hub's sentence. */
  async op(name, input) {
    const response = await fetch(`${this.url}/api/ops/${name}`, {
      method: "POST",
      headers: { Authorization: `Bearer ${this.token}`, "Content-Type": "application/json" },
      body: JSON.stringify(input),
    });
    const text = await response.text();
    if (response.status !== 200) {
      throw new Error(`${name} ${JSON.stringify(input)}: HTTP ${response.status}: ${text}`);
    }
    return JSON.parse(text);
  }

  /** The pending decisions (of a task when given). */
  async pendingDecisions(task) {
    return (await this.op("decision_list", task === undefined ? {} : { task })).decisions.filter((d) => d.status === "pending");
  }

  /** Every decision of a task, answered ones included. */
  async decisions(task) {
    return (await this.op("decision_list", { task, include_closed: true })).decisions;
  }

  /** Waits until the task's latest turn is no longer running; returns it. */
  async turnEnded(task) {
    const list = await this.until(`the turn of #${task} to end`, () => this.op("turn_list", { task, limit: 1 }),
      (t) => t.turns[0] !== undefined && !["running", "lingering"].includes(String(t.turns[0].status).toLowerCase()), 60000);
    return list.turns[0];
  }

  /** Polls a hub read until `check` holds (the hub is another process: no event reaches this test directly). */
  async until(what, read, check = (value) => Boolean(value), ms = 30000) {
    const deadline = Date.now() + ms;
    let last;
    while (Date.now() < deadline) {
      last = await read();
      if (check(last)) {
        return last;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`waited ${ms} ms for ${what}; last read: ${JSON.stringify(last)}`);
  }

  async stop() {
    await stopProcess(this.child, 30000);
    removeUnlessKept(this.root);
  }

}
