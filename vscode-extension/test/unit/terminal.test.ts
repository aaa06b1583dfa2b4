// The hub terminal: the pseudoterminal over a fake socket (input, output, resize, exit, close), the hub's address
// as the CLI finds it, and the command and profile that open one.
import { test, beforeEach } from "node:test";
import assert from "node:assert/strict";
import { commands, recorder, TerminalProfile } from "../stub/vscode";
import { BoardModel } from "../../src/model/board";
import { DecisionBook } from "../../src/model/decisions";
import { WorkspaceModel } from "../../src/model/workspace";
import { RoundhouseApi } from "../../src/protocol/api";
import { Board } from "../../src/protocol/types";
import { HubPty, PtySocket } from "../../src/terminal/hubPty";
import { locateHub, ptyUrl } from "../../src/terminal/hubAddress";
import { registerTerminalCommands, TerminalFace } from "../../src/terminalCommands";
import { TERMINAL_PROFILE_ID } from "../../src/commands-ids";
import { FakeBridge } from "./fakeBridge";

/** A socket that records what is sent and lets the test play the hub. */
class FakeSocket implements PtySocket {
  readonly bytes: string[] = [];
  readonly texts: string[] = [];
  closed = 0;
  private opened: (() => void)[] = [];
  private messages: ((data: Uint8Array | string) => void)[] = [];
  private closes: ((code: number, reason: string) => void)[] = [];
  private errors: ((error: Error) => void)[] = [];
  sendBytes(data: Uint8Array): void { this.bytes.push(new TextDecoder().decode(data)); }
  sendText(text: string): void { this.texts.push(text); }
  close(): void { this.closed++; }
  onOpen(listener: () => void): void { this.opened.push(listener); }
  onMessage(listener: (data: Uint8Array | string) => void): void { this.messages.push(listener); }
  onClose(listener: (code: number, reason: string) => void): void { this.closes.push(listener); }
  onError(listener: (error: Error) => void): void { this.errors.push(listener); }
  open(): void { this.opened.forEach((l) => l()); }
  output(text: string): void { this.messages.forEach((l) => l(new TextEncoder().encode(text))); }
  raw(bytes: Uint8Array): void { this.messages.forEach((l) => l(bytes)); }
  control(message: object): void { this.messages.forEach((l) => l(JSON.stringify(message))); }
  hubCloses(code: number, reason = ""): void { this.closes.forEach((l) => l(code, reason)); }
  fails(message: string): void { this.errors.forEach((l) => l(new Error(message))); }
}

function ptyWith(socket: FakeSocket) {
  const sizes: ({ columns: number; rows: number } | undefined)[] = [];
  const pty = new HubPty((size) => { sizes.push(size); return socket; }, "project web");
  const written: string[] = [];
  const closedWith: (number | void)[] = [];
  pty.onDidWrite((text) => written.push(text));
  pty.onDidClose((code) => closedWith.push(code));
  return { pty, sizes, written, closedWith };
}

beforeEach(() => recorder.reset());

test("the pseudoterminal opens the socket at VS Code's size, forwards input typed before and after the open, and writes the output", () => {
  const socket = new FakeSocket();
  const { pty, sizes, written } = ptyWith(socket);
  pty.open({ columns: 120, rows: 40 });
  assert.deepEqual(sizes, [{ columns: 120, rows: 40 }]);
  pty.handleInput("ls");
  assert.deepEqual(socket.bytes, [], "held until the socket is open");
  socket.open();
  pty.handleInput("\r");
  assert.deepEqual(socket.bytes, ["ls", "\r"]);
  socket.output("hello-42\r\n");
  const euro = new TextEncoder().encode("€");
  socket.raw(euro.subarray(0, 1));
  socket.raw(euro.subarray(1));
  assert.equal(written.join(""), "hello-42\r\n€", "a character split across frames is written whole");
});

test("a resize is a resize control message, and the hub's exit message closes the terminal with the shell's code", () => {
  const socket = new FakeSocket();
  const { pty, written, closedWith } = ptyWith(socket);
  pty.open(undefined);
  socket.open();
  socket.control({ type: "session", id: "s1", pid: 42 });
  pty.setDimensions({ columns: 132, rows: 43 });
  assert.deepEqual(socket.texts.map((t) => JSON.parse(t)), [{ type: "resize", columns: 132, rows: 43 }]);
  socket.control({ type: "exit", code: 3 });
  socket.hubCloses(1000, "exited with code 3");
  assert.deepEqual(closedWith, [3]);
  assert.equal(written.join(""), "");
});

test("closing the terminal closes the socket (the hub hangs up the shell); a lost connection is reported", () => {
  const socket = new FakeSocket();
  const { pty } = ptyWith(socket);
  pty.open(undefined);
  socket.open();
  pty.close();
  assert.equal(socket.closed, 1);

  const lost = new FakeSocket();
  const other = ptyWith(lost);
  other.pty.open(undefined);
  lost.fails("the hub refused the terminal: no project nowhere");
  assert.match(other.written.join(""), /no project nowhere/);
  assert.deepEqual(other.closedWith, [1]);
  lost.hubCloses(1006);
  assert.deepEqual(other.closedWith, [1], "closed once");
});

test("the hub's address comes from ROUNDHOUSE_URL and ROUNDHOUSE_TOKEN, else the home's hub.lock and token", () => {
  assert.deepEqual(locateHub({ ROUNDHOUSE_URL: "http://10.0.0.2:7420/", ROUNDHOUSE_TOKEN: "t0k" }, () => { throw new Error("no file"); }),
    { url: "http://10.0.0.2:7420", token: "t0k" });
  const files: Record<string, string> = { "/h/hub.lock": JSON.stringify({ pid: 1, url: "http://127.0.0.1:7420" }), "/h/token": "secret\n" };
  const read = (file: string) => { if (!(file in files)) { throw new Error("ENOENT"); } return files[file]; };
  const hub = locateHub({ ROUNDHOUSE_HOME: "/h" }, read);
  assert.deepEqual(hub, { url: "http://127.0.0.1:7420", token: "secret" });
  assert.throws(() => locateHub({ ROUNDHOUSE_HOME: "/nowhere" }, read), /no hub is running for \/nowhere/);
  assert.equal(ptyUrl(hub, { task: 7 }, { columns: 80, rows: 24 }), "ws://127.0.0.1:7420/api/x/pty?task=7&columns=80&rows=24");
  assert.equal(ptyUrl({ url: "https://hub.example", token: "x" }, { project: "my web" }), "wss://hub.example/api/x/pty?project=my+web");
  assert.ok(!ptyUrl(hub, { task: 7 }).includes("secret"), "never the token in the URL");
});

test("Open Terminal in Task opens a hub terminal in the task, and the profile one in the project", async () => {
  const web = { id: 1, name: "web", path: "/src/web" };
  const deploy = { id: 7, project_id: 1, title: "Deploy", status: "in_progress" as const };
  const board: Board = { project: web, columns: [{ status: "in_progress", tasks: [deploy] }] };
  const api = new RoundhouseApi(new FakeBridge());
  const model = new BoardModel(new DecisionBook(), new WorkspaceModel(() => api));
  model.setProjects([web]);
  model.setBoard(board);
  const urls: string[] = [];
  const face: TerminalFace = {
    board: model,
    hub: () => ({ url: "http://127.0.0.1:7420", token: "secret" }),
    socket: (url) => { urls.push(url); return new FakeSocket(); },
  };
  const subscriptions: { dispose(): unknown }[] = [];
  registerTerminalCommands({ subscriptions }, face);
  try {
    await commands.executeCommand("roundhouse.openTerminalInTask", { kind: "task", task: deploy });
    assert.equal(recorder.terminals.length, 1);
    assert.equal(recorder.terminals[0].options.name, "Roundhouse #7");
    assert.equal(recorder.terminals[0].shown, 1);
    (recorder.terminals[0].options.pty as HubPty).open({ columns: 90, rows: 30 });
    assert.deepEqual(urls, ["ws://127.0.0.1:7420/api/x/pty?task=7&columns=90&rows=30"]);

    const profile = await recorder.terminalProfiles.get(TERMINAL_PROFILE_ID)!.provideTerminalProfile();
    assert.ok(profile instanceof TerminalProfile);
    (profile.options.pty as HubPty).open(undefined);
    assert.equal(urls[1], "ws://127.0.0.1:7420/api/x/pty?project=web");
  } finally {
    subscriptions.forEach((s) => s.dispose());
  }
});
