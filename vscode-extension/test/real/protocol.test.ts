// The extension's protocol layer (src/protocol, src/model) against the REAL `roundhouse lsp` and a real
// hub, over vscode-languageserver-protocol (what vscode-languageclient is built on). Run by the app
// module's VscodeProtocolTest, which passes RH_LSP_CMD (the bridge's command line, JSON), RH_PROJECT and
// ROUNDHOUSE_HOME.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, ChildProcess } from "child_process";
import * as rpc from "vscode-languageserver-protocol/node";
import { RoundhouseApi } from "../../src/protocol/api";
import { CLIENT_CAPABILITY } from "../../src/protocol/methods";
import { CancellationSignal, Disposable, RpcConnection, isRpcError } from "../../src/protocol/connection";
import { Decision } from "../../src/protocol/types";
import { TranscriptSession } from "../../src/model/transcriptSession";
import { DecisionBook } from "../../src/model/decisions";
import { BoardModel } from "../../src/model/board";

const command = JSON.parse(process.env.RH_LSP_CMD ?? "null") as string[] | null;
const project = process.env.RH_PROJECT ?? "web";
const skip = command === null ? "RH_LSP_CMD is not set (VscodeProtocolTest sets it)" : false;

const asksPermission = JSON.stringify({
  steps: [
    { thought: "A deploy needs a build first." },
    { plan: [{ content: "Build", status: "in_progress", priority: "high" }, "Deploy"] },
    { text: "Deploy" }, { text: "ing" },
    { tool: "Bash", id: "c1", input: { command: "make deploy" }, ask: true, output: ["done\n"], result: "done\n" },
    { plan: [{ content: "Build", status: "completed", priority: "high" }, { content: "Deploy", status: "completed" }] },
    { message: "Deployed." },
    { usage: { input: 1200, output: 80, cost: 0.01, estimated: true, context: 90000, window: 200000 } },
  ],
});
const chatty = JSON.stringify({ steps: Array.from({ length: 12 }, (_, i) => ({ message: `line ${i}` })) });

/**
 * A connection that outlives bridge processes, as vscode-languageclient's client does across restarts:
 * notification handlers are registered again on each new process.
 */
class Bridge implements RpcConnection {
  private child: ChildProcess | undefined;
  private connection: rpc.MessageConnection | undefined;
  private readonly handlers = new Map<string, (params: unknown) => void>();

  async start(): Promise<void> {
    const [program, ...args] = command!;
    const child = spawn(program, args, { stdio: ["pipe", "pipe", "inherit"] });
    const connection = rpc.createMessageConnection(new rpc.StreamMessageReader(child.stdout!), new rpc.StreamMessageWriter(child.stdin!));
    this.handlers.forEach((handler, method) => connection.onNotification(method, handler));
    connection.listen();
    this.child = child;
    this.connection = connection;
    await connection.sendRequest(rpc.InitializeRequest.type, { processId: process.pid, rootUri: null, capabilities: { experimental: CLIENT_CAPABILITY } });
    await connection.sendNotification(rpc.InitializedNotification.type, {});
  }

  /** Ends the process if a failed test left it running (so node can exit). */
  kill(): void {
    if (this.child && this.child.exitCode === null) {
      this.child.kill("SIGKILL");
    }
  }

  async stop(): Promise<number | null> {
    const child = this.child!;
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    await this.connection!.sendRequest(rpc.ShutdownRequest.type);
    await this.connection!.sendNotification(rpc.ExitNotification.type);
    const code = await exited;
    this.connection!.dispose();
    return code;
  }

  sendRequest<R>(method: string, params: object, token?: CancellationSignal): Promise<R> {
    // vscode-jsonrpc sends every extra argument as a positional param: pass the token only when there is one.
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

/**
 * Waits on events, not on a clock: each wait checks its condition when it begins and again each time
 * `changed` is called (the transcript session's onChange, an answered decision); it fails after `ms` naming
 * `what`.
 */
class Changes {
  private readonly waiters = new Set<() => void>();

  /** Re-checks every pending wait; pass it as the handler of whatever the waits depend on. */
  readonly changed = (): void => {
    [...this.waiters].forEach((waiter) => waiter());
  };

  until(what: string, check: () => boolean, ms = 60000): Promise<void> {
    if (check()) {
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const finish = (failure?: unknown): void => {
        clearTimeout(timer);
        this.waiters.delete(waiter);
        if (failure === undefined) {
          resolve();
        } else {
          reject(failure);
        }
      };
      const waiter = (): void => {
        try {
          if (check()) {
            finish();
          }
        } catch (e) {
          finish(e ?? new Error(`${what}: the check failed`));
        }
      };
      const timer = setTimeout(() => finish(new Error(`${what}: not within ${ms} ms`)), ms);
      this.waiters.add(waiter);
    });
  }
}

test("board, a streamed turn with a permission answered from roundhouse/decision, and a resume after a bridge restart", { skip }, async (t) => {
  const bridge = new Bridge();
  t.after(() => bridge.kill());
  const api = new RoundhouseApi(bridge);
  const book = new DecisionBook();
  const changes = new Changes();
  const answered: number[] = [];
  api.onDecision((decision: Decision) => {
    if (book.open(decision) && book.claimPrompt(decision.id) && decision.kind === "permission") {
      void api.answerDecision(decision.id, "allow_once").then(() => {
        answered.push(decision.id);
        changes.changed();
      });
    }
  });
  api.onDecisionClosed((closed) => book.close(closed));
  await bridge.start();

  // The board, through the same model the tree renders.
  const board = new BoardModel(book);
  const task = await api.createTask({ project, title: "deploy from vscode" });
  board.setProjects((await api.projects()).projects, [project]);
  board.setBoard(await api.board(project));
  assert.ok(board.task(task.id), "the new task is on the board");

  // A transcript opened before the turn follows it live: deltas, then the message, the tool, the answer.
  const session = new TranscriptSession(api, task.id, { pageSize: 500, onChange: changes.changed });
  await session.open();
  assert.equal(session.state, "live");
  await api.call("turn_start", { task: task.id, message: asksPermission, driver: "script" });
  await changes.until("turn 1 ended in the transcript", () => session.model.items.some((i) => i.kind === "marker" && /completed/.test(i.text)));
  await changes.until("the permission came as roundhouse/decision and was answered", () => answered.length === 1);
  assert.equal(answered.length, 1, "one permission, answered once");
  const kinds = session.model.items.map((i) => i.kind);
  assert.deepEqual(kinds.filter((k) => k !== "marker"), ["user", "thought", "plan", "assistant", "tool", "decision", "assistant", "usage"], JSON.stringify(session.model.items));
  const plan = session.model.items.find((i) => i.kind === "plan");
  assert.deepEqual(plan?.kind === "plan" && plan.entries.map((e) => `${e.content}:${e.status}:${e.priority}`), ["Build:completed:high", "Deploy:completed:medium"], "the later plan replaced the first in place");
  const usage = session.model.items.find((i) => i.kind === "usage");
  assert.equal(usage?.kind === "usage" && usage.text, "1.2k in · 80 out · $0.0100 (estimated) · context 45% of 200k");
  const assistant = session.model.items.filter((i) => i.kind === "assistant");
  assert.deepEqual(assistant.map((i) => i.kind === "assistant" && i.text), ["Deploying", "Deployed."], "the streamed draft was replaced by the message it ends in");
  const tool = session.model.items.find((i) => i.kind === "tool");
  assert.ok(tool && tool.kind === "tool" && tool.done && tool.result === "done\n", "the approved tool ran and its result is folded in");
  const decision = session.model.items.find((i) => i.kind === "decision");
  assert.ok(decision && decision.kind === "decision" && decision.status === "answered" && decision.answer === "allow_once");
  const seenBefore = session.model.lastSeq;

  // The bridge goes away (VS Code reloads); a second turn runs meanwhile; a new bridge resumes the session.
  assert.equal(await bridge.stop(), 0);
  await bridge.start();
  await api.call("turn_start", { task: task.id, message: chatty, driver: "script" });
  await session.reconnect();
  await changes.until("turn 2 ended in the transcript", () => session.model.items.filter((i) => i.kind === "marker" && /completed/.test(i.text)).length === 2);
  assert.ok(session.model.lastSeq > seenBefore);
  const texts = session.model.items.filter((i) => i.kind === "assistant").map((i) => (i.kind === "assistant" ? i.text : ""));
  assert.deepEqual(texts, ["Deploying", "Deployed.", ...Array.from({ length: 12 }, (_, i) => `line ${i}`)], "every line once, in order");
  const keys = session.model.items.map((i) => i.key);
  assert.equal(new Set(keys).size, keys.length, "no item twice");

  // The same transcript read in small pages gives the same lines.
  const paged = new TranscriptSession(api, task.id, { pageSize: 3, onChange: () => undefined });
  await paged.open();
  assert.ok(paged.pages > 5, `read in ${paged.pages} pages`);
  assert.deepEqual(paged.model.items.map((i) => i.kind), session.model.items.map((i) => i.kind));
  paged.dispose();
  session.dispose();

  // Bad input is refused with the field or the thing named.
  await assert.rejects(api.watchTask(424242), (e: unknown) => isRpcError(e) && e.code === -32803 && /no task 424242/.test(e.message));
  await assert.rejects(bridge.sendRequest("roundhouse/transcript", { task: "x" }), (e: unknown) => isRpcError(e) && e.code === -32602 && /params\.task/.test(e.message));
  assert.equal(await bridge.stop(), 0);
});
