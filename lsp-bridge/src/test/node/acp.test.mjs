// The npm ACP client (@agentclientprotocol/sdk) drives `roundhouse acp` as a process against a running
// hub whose project uses the script driver. Run by the app module's EditorNodeClientsTest, which starts the
// hub and passes: RH_ACP_CMD (the agent's command line, JSON), RH_PROJECT_DIR (the project's folder).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";

const command = JSON.parse(process.env.RH_ACP_CMD);
const projectDir = process.env.RH_PROJECT_DIR;

const asksPermission = JSON.stringify({
  steps: [
    { thought: "The tests live in make test." },
    { plan: [{ content: "Run the tests", status: "in_progress", priority: "high" }, "Report"] },
    { text: "Run" }, { text: "ning tests" },
    { tool: "Bash", id: "c1", input: { command: "make test" }, ask: true, output: ["ok\n"], result: "ok\n" },
    { message: "All green." },
    { usage: { input: 120, output: 30, cost: 0.02, context: 4000, window: 200000 } },
  ],
});
const hangsAfterPermission = JSON.stringify({
  steps: [
    { tool: "Bash", id: "c2", input: { command: "make deploy" }, ask: true, result: "deployed" },
    { hang: true },
  ],
});

/** Starts the agent process and a client app whose permission answers come from `answer`. */
function connect(answer) {
  const child = spawn(command[0], command.slice(1), { stdio: ["pipe", "pipe", "inherit"] });
  const stream = acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout));
  const updates = [];
  const asked = [];
  const app = acp.client({ name: "roundhouse-node-test" })
    .onNotification(acp.methods.client.session.update, (ctx) => { updates.push(ctx.params.update); })
    .onRequest(acp.methods.client.session.requestPermission, async (ctx) => {
      asked.push(ctx.params);
      return answer(ctx.params);
    });
  const exited = new Promise((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, stream, app, updates, asked, exited };
}

function describe(update) {
  switch (update.sessionUpdate) {
    case "agent_message_chunk":
    case "user_message_chunk":
      return `${update.sessionUpdate} ${update.content.text}`;
    case "tool_call":
      return `tool_call ${update.toolCallId} ${update.kind} ${update.status}`;
    case "tool_call_update":
      return `tool_call_update ${update.toolCallId} ${update.status ?? "null"}`;
    case "agent_thought_chunk":
      return `agent_thought_chunk ${update.content.text}`;
    case "usage_update":
      return `usage_update ${update.used}/${update.size} ${update.cost?.amount} ${update.cost?.currency}`;
    case "plan":
      return `plan ${update.entries.map((e) => `${e.content}:${e.status}:${e.priority}`).join(",")}`;
    default:
      return update.sessionUpdate;
  }
}

async function withDeadline(promise, ms, what) {
  let timer;
  const deadline = new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms); });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

test("prompt streams the turn, asks permission, allow it, ends with end_turn; load replays it", async () => {
  const allowOnce = (params) => {
    const option = params.options.find((o) => o.kind === "allow_once");
    return { outcome: { outcome: "selected", optionId: option.optionId } };
  };
  const c = connect(allowOnce);
  let sessionId;
  await c.app.connectWith(c.stream, async (ctx) => {
    const init = await ctx.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
    assert.equal(init.protocolVersion, 1);
    assert.equal(init.agentCapabilities.loadSession, true);
    const session = await ctx.request(acp.methods.agent.session.new, { cwd: projectDir, mcpServers: [] });
    sessionId = session.sessionId;
    assert.match(sessionId, /^task-\d+$/);
    assert.deepEqual(session.configOptions.map((o) => o.id), ["driver", "model", "permission_mode"]);
    const set = await ctx.request(acp.methods.agent.session.setConfigOption, { sessionId, configId: "model", value: "script" });
    assert.equal(set.configOptions.find((o) => o.id === "model").currentValue, "script");
    await assert.rejects(ctx.request(acp.methods.agent.session.setConfigOption, { sessionId, configId: "model", value: "gpt-9" }),
      (e) => e.code === -32602 && /not a choice of model/.test(e.message));

    const response = await withDeadline(
      ctx.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: asksPermission }] }), 60000, "session/prompt");
    assert.equal(response.stopReason, "end_turn");
    assert.equal(c.asked.length, 1);
    assert.equal(c.asked[0].toolCall.toolCallId, "c1");
    assert.deepEqual(c.asked[0].options.map((o) => o.kind), ["allow_once", "allow_always", "reject_once"]);
    assert.deepEqual(c.updates.map(describe), [
      "agent_thought_chunk The tests live in make test.",
      "plan Run the tests:in_progress:high,Report:pending:medium",
      "agent_message_chunk Run",
      "agent_message_chunk ning tests",
      "tool_call c1 execute in_progress",
      "tool_call_update c1 null",
      "tool_call_update c1 completed",
      "agent_message_chunk All green.",
      "usage_update 4000/200000 0.02 USD",
    ]);

    c.updates.length = 0;
    await ctx.request(acp.methods.agent.session.load, { sessionId, cwd: projectDir, mcpServers: [] });
    const replay = c.updates.map(describe);
    assert.equal(replay[0], `user_message_chunk ${asksPermission}`);
    assert.equal(replay[1], "agent_thought_chunk The tests live in make test.");
    assert.equal(replay[2], "plan Run the tests:in_progress:high,Report:pending:medium");
    assert.ok(replay.includes("agent_message_chunk All green."), replay.join("\n"));

    const list = await ctx.request(acp.methods.agent.session.list, { cwd: projectDir });
    assert.ok(list.sessions.some((s) => s.sessionId === sessionId));
  });
  c.child.stdin.end();
  assert.equal(await withDeadline(c.exited, 30000, "agent exit"), 0);
});

test("a cancelled prompt ends with cancelled and its pending permission is answered cancelled", async () => {
  let permissionAsked;
  const asked = new Promise((resolve) => { permissionAsked = resolve; });
  let releasePermission;
  const released = new Promise((resolve) => { releasePermission = resolve; });
  // a client answers its pending permissions with `cancelled` once it has sent session/cancel
  const c = connect(async () => {
    permissionAsked();
    await released;
    return { outcome: { outcome: "cancelled" } };
  });
  await c.app.connectWith(c.stream, async (ctx) => {
    await ctx.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
    const { sessionId } = await ctx.request(acp.methods.agent.session.new, { cwd: projectDir, mcpServers: [] });
    const prompt = ctx.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: hangsAfterPermission }] });
    await withDeadline(asked, 60000, "session/request_permission");
    await ctx.notify(acp.methods.agent.session.cancel, { sessionId });
    releasePermission();
    const response = await withDeadline(prompt, 30000, "cancelled session/prompt");
    assert.equal(response.stopReason, "cancelled");
    assert.ok(!c.updates.map(describe).includes("tool_call_update c2 completed"));
  });
  c.child.stdin.end();
  assert.equal(await withDeadline(c.exited, 30000, "agent exit"), 0);
});

test("a malformed message gets a JSON-RPC error and the agent keeps serving", async () => {
  const child = spawn(command[0], command.slice(1), { stdio: ["pipe", "pipe", "inherit"] });
  const lines = [];
  let buffer = "";
  const waiters = [];
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk) => {
    buffer += chunk;
    let at;
    while ((at = buffer.indexOf("\n")) >= 0) {
      lines.push(JSON.parse(buffer.slice(0, at)));
      buffer = buffer.slice(at + 1);
      waiters.splice(0).forEach((wake) => wake());
    }
  });
  const next = async (index) => {
    while (lines.length <= index) {
      await withDeadline(new Promise((resolve) => waiters.push(resolve)), 30000, "agent reply");
    }
    return lines[index];
  };
  child.stdin.write("{not json\n");
  const parseError = await next(0);
  assert.equal(parseError.error.code, -32700);
  child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id: 7, method: "session/unknown", params: {} }) + "\n");
  const unknown = await next(1);
  assert.equal(unknown.id, 7);
  assert.equal(unknown.error.code, -32601);
  child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id: 8, method: "initialize", params: { protocolVersion: 1, clientCapabilities: {} } }) + "\n");
  const init = await next(2);
  assert.equal(init.id, 8);
  assert.equal(init.result.protocolVersion, 1);
  const exited = new Promise((resolve) => child.on("exit", resolve));
  child.stdin.end();
  assert.equal(await withDeadline(exited, 30000, "agent exit"), 0);
});
