// The extension's remote path (src/protocol/hubSocket.ts, src/model/reconnect.ts, the protocol layer) against a
// REAL `roundhouse serve` over its WebSocket /api/lsp, with no local bridge process: a refused token and a refused
// Origin give the hub's own sentence before the upgrade, the protocol layer works over the socket, and after the
// hub restarts (same home, same port) the Reconnector connects again and the layer picks up where it was. Run by
// the app module's VscodeProtocolTest, which passes RH_ROUNDHOUSE_CMD (the roundhouse command line, JSON, without
// a subcommand); this test starts and restarts its own hub in a temporary ROUNDHOUSE_HOME.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, ChildProcess } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as rpc from "vscode-jsonrpc/node";
import { RoundhouseApi } from "../../src/protocol/api";
import { CLIENT_CAPABILITY } from "../../src/protocol/methods";
import { CancellationSignal, Disposable, RpcConnection } from "../../src/protocol/connection";
import { HubEvent } from "../../src/protocol/types";
import { HubRefused, HubSocket, bridgeUrl, openHubSocket } from "../../src/protocol/hubSocket";
import { ConnectionState, Reconnector, Timer } from "../../src/model/reconnect";
import { remoteFailure } from "../../src/model/remoteHub";

const command = JSON.parse(process.env.RH_ROUNDHOUSE_CMD ?? "null") as string[] | null;
const skip = command === null ? "RH_ROUNDHOUSE_CMD is not set (VscodeProtocolTest sets it)" : false;
const START_MS = 120000;

/** A `roundhouse serve` process in `home`; start() resolves with its URL once it listens. */
class HubProcess {
  private child: ChildProcess | undefined;

  constructor(private readonly home: string) {}

  start(port: number): Promise<string> {
    const env: Record<string, string | undefined> = {};
    for (const [name, value] of Object.entries(process.env)) {
      if (!name.startsWith("ROUNDHOUSE_")) {
        env[name] = value;
      }
    }
    env.ROUNDHOUSE_HOME = this.home;
    const [program, ...args] = command!;
    const child = spawn(program, [...args, "serve", "--port", String(port)], { env, stdio: ["ignore", "ignore", "pipe"] });
    this.child = child;
    return new Promise<string>((resolve, reject) => {
      let seen = "";
      const timer = setTimeout(() => reject(new Error(`the hub did not listen within ${START_MS} ms:\n${seen}`)), START_MS);
      child.stderr!.on("data", (chunk: Buffer) => {
        seen += chunk.toString("utf8");
        const listening = /listening on (http:\/\/\S+)/.exec(seen);
        if (listening) {
          clearTimeout(timer);
          resolve(listening[1]);
        }
      });
      child.on("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`the hub exited (${code}) before it listened:\n${seen}`));
      });
    });
  }

  /** SIGTERM, and the exit status. */
  stop(): Promise<number | null> {
    const child = this.child!;
    if (child.exitCode !== null) {
      return Promise.resolve(child.exitCode);
    }
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    child.kill("SIGTERM");
    return exited;
  }

  kill(): void {
    if (this.child && this.child.exitCode === null && this.child.signalCode === null) {
      this.child.kill("SIGKILL");
    }
  }
}

/**
 * The protocol layer's connection over the hub's WebSocket, as the extension's remote client is: each connect()
 * opens a new socket and connection, registers the notification handlers again and initializes; a close tells the
 * Reconnector.
 */
class SocketBridge implements RpcConnection {
  private socket: HubSocket | undefined;
  private connection: rpc.MessageConnection | undefined;
  private readonly handlers = new Map<string, (params: unknown) => void>();
  onLost: (reason: string) => void = () => undefined;

  constructor(private readonly url: string, private readonly token: string) {}

  async connect(): Promise<void> {
    this.close();
    const socket = await openHubSocket(this.url, this.token);
    const connection = rpc.createMessageConnection(socket.reader, socket.writer);
    this.handlers.forEach((handler, method) => connection.onNotification(method, handler));
    connection.listen();
    this.socket = socket;
    this.connection = connection;
    socket.onClose((code, reason) => {
      if (this.socket === socket) {
        this.onLost(reason || `closed (${code})`);
      }
    });
    await connection.sendRequest("initialize", { processId: process.pid, rootUri: null, capabilities: { experimental: CLIENT_CAPABILITY } });
    await connection.sendNotification("initialized", {});
  }

  close(): void {
    const socket = this.socket;
    this.socket = undefined;
    this.connection?.dispose();
    this.connection = undefined;
    socket?.close();
  }

  sendRequest<R>(method: string, params: object, token?: CancellationSignal): Promise<R> {
    return token === undefined
      ? this.connection!.sendRequest<R>(method, params)
      : this.connection!.sendRequest<R>(method, params, token as rpc.CancellationToken);
  }

  onNotification(method: string, handler: (params: unknown) => void): Disposable {
    this.handlers.set(method, handler);
    this.connection?.onNotification(method, handler);
    return { dispose: () => this.handlers.delete(method) };
  }
}

/** Resolves when `check` holds, re-checked on each `changed()`; fails after `ms` naming `what`. */
class Waits {
  private readonly waiters = new Set<() => void>();
  readonly changed = (): void => [...this.waiters].forEach((waiter) => waiter());

  until(what: string, check: () => boolean, ms = START_MS): Promise<void> {
    if (check()) {
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(new Error(`${what}: not within ${ms} ms`));
      }, ms);
      const waiter = (): void => {
        if (check()) {
          clearTimeout(timer);
          this.waiters.delete(waiter);
          resolve();
        }
      };
      this.waiters.add(waiter);
    });
  }
}

/** The real clock, with each pause a tenth as long: the backoff's steps, without a test that waits 30 s. */
const quickTimer: Timer = {
  set: (run, ms) => setTimeout(run, ms / 10),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

test("a remote hub over /api/lsp: a refused token and Origin, the protocol layer, and a reconnect after the hub restarts", { skip, timeout: 600000 }, async (t) => {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "rh-remote-"));
  const repo = fs.mkdtempSync(path.join(os.tmpdir(), "rh-remote-repo-"));
  const hub = new HubProcess(home);
  t.after(() => {
    hub.kill();
    fs.rmSync(home, { recursive: true, force: true });
    fs.rmSync(repo, { recursive: true, force: true });
  });
  const hubUrl = await hub.start(0);
  const port = Number(new URL(hubUrl).port);
  const token = fs.readFileSync(path.join(home, "token"), "utf8").trim();
  const url = bridgeUrl(hubUrl);

  // Refusals come before the upgrade, with the hub's sentence; a wrong token means signing in again.
  await assert.rejects(openHubSocket(url, "not-the-token"), (e: unknown) => e instanceof HubRefused && e.status === 401
    && /not this hub's token/.test(e.message) && remoteFailure(e).signIn === true);
  await assert.rejects(openHubSocket(url, undefined), (e: unknown) => e instanceof HubRefused && e.status === 401
    && /missing 'Authorization: Bearer <token>'/.test(e.message));
  await assert.rejects(openHubSocket(url, token, { origin: "https://evil.example" }), (e: unknown) => e instanceof HubRefused
    && e.status === 403 && /browser origin 'https:\/\/evil\.example' are refused/.test(e.message) && remoteFailure(e).final === true);

  // The protocol layer over the socket, kept up by the Reconnector.
  const bridge = new SocketBridge(url, token);
  const waits = new Waits();
  const states: ConnectionState[] = [];
  const reconnector = new Reconnector(() => bridge.connect(), (state) => {
    states.push(state);
    waits.changed();
  }, quickTimer, remoteFailure);
  bridge.onLost = (reason) => reconnector.lost(reason);
  t.after(() => {
    reconnector.stop();
    bridge.close();
  });
  const api = new RoundhouseApi(bridge);
  const events: HubEvent[] = [];
  api.onEvent((event) => {
    events.push(event);
    waits.changed();
  });
  reconnector.start();
  await waits.until("connected", () => reconnector.current.kind === "connected");
  await api.subscribe(undefined, ["task."]);
  await api.call("project_create", { name: "web", path: repo, default_agent: "script" });
  const before = await api.createTask({ project: "web", title: "filed before the restart" });
  await waits.until("task.created arrived as roundhouse/event", () => events.some((e) => e.type === "task.created" && e.task_id === before.id));
  const lastSeq = Math.max(...events.map((e) => e.seq));

  // The hub stops: the socket closes, the Reconnector retries (and fails while nothing listens).
  assert.equal(await hub.stop(), 0);
  await waits.until("retrying after the hub stopped", () => states.some((s) => s.kind === "retrying"));
  await waits.until("a retry failed while the hub was down", () => states.filter((s) => s.kind === "retrying").length >= 2);
  const failed = states.filter((s) => s.kind === "retrying").at(-1);
  assert.match(failed?.kind === "retrying" ? failed.reason : "", /cannot reach the hub|ECONNREFUSED/);

  // The same hub again (same home, same port): connected again, the board as it was, events from where they were.
  const restarted = Date.now();
  assert.equal(await hub.start(port), hubUrl);
  const listening = Date.now();
  await waits.until("connected again after the restart", () => reconnector.current.kind === "connected");
  t.diagnostic(`hub restart: listening after ${listening - restarted} ms, the extension connected again ${Date.now() - listening} ms later `
    + `(${states.filter((s) => s.kind === "connecting").length} attempts in all)`);
  const board = await api.board("web");
  assert.ok(JSON.stringify(board).includes("filed before the restart"), "the board read over the new socket");
  await api.subscribe(lastSeq, ["task."]);
  const after = await api.createTask({ project: "web", title: "filed after the restart" });
  await waits.until("task.created after the restart", () => events.some((e) => e.type === "task.created" && e.task_id === after.id));
  assert.equal(events.filter((e) => e.task_id === before.id && e.type === "task.created").length, 1, "no event twice");

  reconnector.stop();
  bridge.close();
  assert.equal(await hub.stop(), 0);
});
