// The npm ACP client (@agentclientprotocol/sdk) gives `roundhouse acp` an MCP stdio server of its own
// (notes-server.mjs) in session/new, the way Zed and JetBrains pass theirs, and checks that real drivers see
// and call its tool, with the hub's permission gate asking first. Run by the app module's AcpMcpServersTest,
// which starts the hub (Claude Code and the OpenAI-compatible driver against fake model servers scripted to
// call mcp__notes__lookup_note; codex configured at a path where nothing is installed) and passes:
// RH_ACP_CMD (the agent's command line, JSON), RH_PROJECT_DIR, RH_NOTES_TOKEN (a secret for the server), and
// RH_NOTES_TRANSPORT: "stdio" (the server is a command, the secret in its env) or "http" (this test starts the
// server on loopback, and the secret goes in the Authorization header the client gives for it).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";

const command = JSON.parse(process.env.RH_ACP_CMD);
const projectDir = process.env.RH_PROJECT_DIR;
const token = process.env.RH_NOTES_TOKEN;
const transport = process.env.RH_NOTES_TRANSPORT ?? "stdio";
const notesScript = fileURLToPath(new URL("./notes-server.mjs", import.meta.url));

async function withDeadline(promise, ms, what) {
  let timer;
  const deadline = new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms); });
  try {
      return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** The notes server as session/new gives it: a command, or the URL of one this test starts (stopped by the caller). */
async function notesServerSpec(started) {
  if (transport === "stdio") {
    return { name: "notes", command: process.execPath, args: [notesScript], env: [{ name: "NOTES_TOKEN", value: token }] };
  }
  const server = spawn(process.execPath, [notesScript, "--http"], { stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, NOTES_TOKEN: token } });
  started.push(server);
  const [line] = await withDeadline(once(createInterface({ input: server.stdout }), "line"), 30000, "the HTTP notes server");
  const url = line.replace(/^listening /, "");
  return { type: "http", name: "notes", url, headers: [{ name: "Authorization", value: `Bearer ${token}` }] };
}

test(`the client's MCP ${transport} server reaches Claude Code and the OpenAI-compatible driver through the gate; a missing CLI is refused at set_mode`, async () => {
  const servers = [];
  const child = spawn(command[0], command.slice(1), { stdio: ["pipe", "pipe", "inherit"] });
  const stream = acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout));
  const updates = [];
  const asked = [];
  const app = acp.client({ name: "roundhouse-mcp-test" })
    .onNotification(acp.methods.client.session.update, (ctx) => { updates.push(ctx.params.update); })
    .onRequest(acp.methods.client.session.requestPermission, async (ctx) => {
      asked.push(ctx.params);
      const option = ctx.params.options.find((o) => o.kind === "allow_once");
      return { outcome: { outcome: "selected", optionId: option.optionId } };
    });
  const exited = new Promise((resolve) => child.on("exit", (code) => resolve(code)));

  try {
    await app.connectWith(stream, async (ctx) => {
      const init = await ctx.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
      assert.deepEqual(init.agentCapabilities.mcpCapabilities, { http: true, sse: false });

      const notes = await notesServerSpec(servers);
      const session = await ctx.request(acp.methods.agent.session.new, { cwd: projectDir, mcpServers: [notes] });
      const sessionId = session.sessionId;
      const codex = session.modes.availableModes.find((m) => m.id === "codex");
      assert.match(codex.description, /unavailable: codex is not installed/);

      // A driver whose CLI is missing is refused when chosen, with its reason.
      await assert.rejects(ctx.request(acp.methods.agent.session.setMode, { sessionId, modeId: "codex" }),
        (e) => e.code === -32602 && /the codex driver cannot run here: codex is not installed/.test(e.message) && e.data?.driver === "codex");
      await assert.rejects(ctx.request(acp.methods.agent.session.setConfigOption, { sessionId, configId: "driver", value: "codex" }),
        (e) => e.code === -32602 && /codex is not installed/.test(e.message));
      // An SSE server is refused: mcpCapabilities.sse is false.
      await assert.rejects(ctx.request(acp.methods.agent.session.new, { cwd: projectDir, mcpServers: [{ type: "sse", name: "old", url: "http://127.0.0.1:1/sse", headers: [] }] }),
        (e) => e.code === -32602 && /SSE server/.test(e.message));

      for (const driver of ["claude", "openai"]) {
        await ctx.request(acp.methods.agent.session.setMode, { sessionId, modeId: driver });
        updates.length = 0;
        asked.length = 0;
        const response = await withDeadline(
          ctx.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "What does the team's note on trains say?" }] }),
          120000, `session/prompt with ${driver}`);
        assert.equal(response.stopReason, "end_turn", driver);
        const gated = asked.filter((a) => JSON.stringify(a.toolCall).includes("mcp__notes__lookup_note"));
        assert.equal(gated.length, 1, `${driver}: the gate asked about the notes tool once: ${JSON.stringify(asked)}`);
        const done = updates.filter((u) => u.sessionUpdate === "tool_call_update" && u.status === "completed");
        assert.ok(done.some((u) => JSON.stringify(u.content).includes(`note on trains: the token has ${token.length} characters (over ${transport})`)),
          `${driver}: the tool's answer came back: ${JSON.stringify(updates)}`);
        assert.ok(updates.some((u) => u.sessionUpdate === "agent_message_chunk" && u.content.text.includes("about trains")), driver);
      }
    });
  } finally {
    servers.forEach((server) => server.kill());
  }
  child.stdin.end();
  assert.equal(await withDeadline(exited, 30000, "agent exit"), 0);
});
