// vscode-languageserver-protocol and its vscode-jsonrpc (the libraries VS Code's language client is built on)
// drive `roundhouse lsp` as a process against a running hub whose project uses the script driver. Run by
// the app module's EditorNodeClientsTest, which passes RH_LSP_CMD (the bridge's command line, JSON) and
// RH_PROJECT (the project's name).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import * as rpc from "vscode-languageserver-protocol/node.js";

const { InitializeRequest, InitializedNotification, ShutdownRequest, ExitNotification, ShowMessageRequest } = rpc;

const command = JSON.parse(process.env.RH_LSP_CMD);
const project = process.env.RH_PROJECT;

const asksPermission = JSON.stringify({
  steps: [
    { text: "Deploy" }, { text: "ing" },
    { tool: "Bash", id: "c1", input: { command: "make deploy" }, ask: true, output: ["done\n"], result: "done\n" },
    { message: "Deployed." },
  ],
});

function start() {
  const child = spawn(command[0], command.slice(1), { stdio: ["pipe", "pipe", "inherit"] });
  const connection = rpc.createMessageConnection(new rpc.StreamMessageReader(child.stdout), new rpc.StreamMessageWriter(child.stdin));
  const exited = new Promise((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, connection, exited };
}

/** Resolves with the first value `find` returns (not undefined) among what `push` is given, within `ms`. */
function waiter(ms, what) {
  const seen = [];
  const waiting = [];
  return {
    seen,
    push(value) {
      seen.push(value);
      for (const w of waiting.splice(0)) {
        w();
      }
    },
    async until(find) {
      const deadline = Date.now() + ms;
      for (;;) {
        const found = seen.map(find).find((v) => v !== undefined);
        if (found !== undefined) {
          return found;
        }
        const left = deadline - Date.now();
        if (left <= 0) {
          throw new Error(`${what}: not seen within ${ms} ms; saw ${JSON.stringify(seen.slice(-5))}`);
        }
        await new Promise((resolve) => {
          const timer = setTimeout(resolve, left);
          waiting.push(() => { clearTimeout(timer); resolve(); });
        });
      }
    },
  };
}

async function stop({ connection, exited }) {
  await connection.sendRequest(ShutdownRequest.type);
  await connection.sendNotification(ExitNotification.type);
  const code = await exited;
  connection.dispose();
  return code;
}

test("a roundhouse-aware client: subscribe, start a turn, answer its decision, follow it to the end in seq order", async () => {
  const lsp = start();
  const events = waiter(60000, "roundhouse/event");
  const decisions = waiter(60000, "roundhouse/decision");
  lsp.connection.onNotification("roundhouse/event", (event) => events.push(event));
  lsp.connection.onNotification("roundhouse/decision", (decision) => decisions.push(decision));
  lsp.connection.onNotification("roundhouse/connection", () => {});
  lsp.connection.onNotification("roundhouse/decisionClosed", () => {});
  lsp.connection.listen();

  const init = await lsp.connection.sendRequest(InitializeRequest.type, {
    processId: process.pid, rootUri: null, capabilities: { experimental: { roundhouse: { version: 1 } } },
  });
  assert.equal(init.serverInfo.name, "roundhouse");
  assert.ok(init.capabilities.experimental.roundhouse, JSON.stringify(init.capabilities));
  await lsp.connection.sendNotification(InitializedNotification.type, {});

  const subscribed = await lsp.connection.sendRequest("roundhouse/subscribe", { types: ["turn.", "decision."] });
  assert.equal(subscribed.subscribed, true);
  const task = await lsp.connection.sendRequest("roundhouse/call", { name: "task_create", arguments: { project, title: "deploy" } });
  await lsp.connection.sendRequest("roundhouse/call", { name: "turn_start", arguments: { task: task.id, message: asksPermission, driver: "script" } });

  const decision = await decisions.until((d) => (d.task_id === task.id ? d : undefined));
  assert.deepEqual(decision.options, ["allow_once", "allow_always", "deny"]);
  const answered = await lsp.connection.sendRequest("roundhouse/answerDecision", { decision: decision.id, answer: "allow_once" });
  assert.equal(answered.status, "answered");

  const ended = await events.until((e) => (e.type === "turn.ended" && e.task_id === task.id ? e : undefined));
  assert.equal(ended.data.status, "completed");
  const mine = events.seen.filter((e) => e.task_id === task.id);
  const seqs = mine.map((e) => e.seq);
  assert.deepEqual(seqs, [...seqs].sort((a, b) => a - b), "events arrive in seq order");
  assert.equal(new Set(seqs).size, seqs.length, "each event once");
  assert.ok(mine.some((e) => e.type === "turn.tool_result"), "the approved tool ran");
  assert.equal(await stop(lsp), 0);
});

test("a plain LSP client gets the decision as window/showMessageRequest and its button answers it", async () => {
  const lsp = start();
  const prompts = waiter(60000, "window/showMessageRequest");
  const events = waiter(60000, "roundhouse/event");
  lsp.connection.onNotification("roundhouse/event", (event) => events.push(event));
  lsp.connection.onRequest(ShowMessageRequest.type, (params) => {
    prompts.push(params);
    return params.actions.find((a) => a.title === "Allow once");
  });
  lsp.connection.listen();
  await lsp.connection.sendRequest(InitializeRequest.type, { processId: process.pid, rootUri: null, capabilities: {} });
  await lsp.connection.sendNotification(InitializedNotification.type, {});
  await lsp.connection.sendRequest("roundhouse/subscribe", { types: ["turn.ended"] });

  const task = await lsp.connection.sendRequest("roundhouse/call", { name: "task_create", arguments: { project, title: "deploy again" } });
  await lsp.connection.sendRequest("roundhouse/call", { name: "turn_start", arguments: { task: task.id, message: asksPermission, driver: "script" } });
  const shown = await prompts.until((p) => (p.message.includes(`task #${task.id}`) ? p : undefined));
  assert.deepEqual(shown.actions.map((a) => a.title), ["Allow once", "Always allow", "Deny"]);

  const ended = await events.until((e) => (e.type === "turn.ended" && e.task_id === task.id ? e : undefined));
  assert.equal(ended.data.status, "completed");
  const closed = await lsp.connection.sendRequest("roundhouse/decisions", { task: task.id, include_closed: true });
  assert.equal(JSON.stringify(closed).includes('"answer":"allow_once"'), true, JSON.stringify(closed));
  assert.equal(await stop(lsp), 0);
});

test("bad input gets -32601 / -32602 naming what was wrong, and the bridge keeps serving", async () => {
  const lsp = start();
  lsp.connection.listen();
  await lsp.connection.sendRequest(InitializeRequest.type, { processId: process.pid, rootUri: null, capabilities: {} });
  await assert.rejects(lsp.connection.sendRequest("roundhouse/nope", {}), (e) => e.code === -32601);
  await assert.rejects(lsp.connection.sendRequest("roundhouse/task", { task: "seven" }),
    (e) => e.code === -32602 && /params\.task/.test(e.message));
  // two arguments: vscode-jsonrpc sends them by position, as an array
  await assert.rejects(lsp.connection.sendRequest("roundhouse/task", { task: 1 }, { extra: true }),
    (e) => e.code === -32602 && /roundhouse\/task: params must be an object .*an array of 2/.test(e.message));
  await assert.rejects(lsp.connection.sendRequest("roundhouse/task", { task: 424242 }),
    (e) => e.code === -32803 && /424242/.test(e.message));
  const board = await lsp.connection.sendRequest("roundhouse/board", { project });
  assert.ok(board, "still serving");
  assert.equal(await stop(lsp), 0);
});
