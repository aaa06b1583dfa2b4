// The hub terminal: the pseudoterminal over a fake socket (input, output, resize, exit, close), the hub's address
// as the CLI finds it, and the command and profile that open one.
import { test, beforeEach } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { commands, recorder, terminalClosed, TerminalExitReason, TerminalProfile } from "../stub/vscode";
import { BoardModel } from "../../src/model/board";
import { DecisionBook } from "../../src/model/decisions";
import { WorkspaceModel } from "../../src/model/workspace";
import { RoundhouseApi } from "../../src/protocol/api";
import { Board } from "../../src/protocol/types";
import { CLOSE_VERDICT_MS, HubPty, PtySocket } from "../../src/terminal/hubPty";
import { locateHub, ptyUrl } from "../../src/terminal/hubAddress";
import { detachTerminals, fileMemory, hubTerminal, REATTACH_WITHIN_MS, registerTerminalCommands, TerminalFace } from "../../src/terminalCommands";
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

/** A pseudoterminal whose socket is open and to which the hub has named its session `id`. */
function withSession(id: string) {
  const socket = new FakeSocket();
  const opened = ptyWith(socket);
  opened.pty.open(undefined);
  socket.open();
  socket.control({ type: "session", id, pid: 42 });
  return { socket, ...opened };
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

test("detach tells the hub to keep the shell and closes the socket; before the hub named the session there is nothing to keep", () => {
  const { socket, pty, closedWith } = withSession("s9");
  assert.equal(pty.detach(), "s9");
  assert.deepEqual(socket.texts.map((t) => JSON.parse(t)), [{ type: "detach" }]);
  assert.equal(socket.closed, 1);
  socket.hubCloses(1000);
  assert.deepEqual(closedWith, [], "a detached terminal does not report an end of its own");
  assert.equal(pty.detach(), undefined, "detached once");

  const early = new FakeSocket();
  const other = ptyWith(early);
  other.pty.open(undefined);
  assert.equal(other.pty.detach(), undefined, "no session id yet: nothing to reattach");
  assert.deepEqual(early.texts, [], "no detach sent");
});

test("a close waits for VS Code's reason: the user's hangs the shell up, a window going away detaches it", () => {
  const opened = () => {
    const { socket, pty } = withSession("s1");
    pty.close();
    assert.equal(socket.closed, 0, "nothing decided before the reason");
    return { socket, pty };
  };
  const byUser = opened();
  byUser.pty.closedBecause(false);
  assert.equal(byUser.socket.closed, 1);
  assert.deepEqual(byUser.socket.texts, [], "closed without a detach: the hub hangs the shell up");

  const byReload = opened();
  byReload.pty.closedBecause(true);
  assert.equal(byReload.socket.closed, 1);
  assert.deepEqual(byReload.socket.texts.map((t) => JSON.parse(t)), [{ type: "detach" }]);

  const byDeactivation = opened();
  assert.equal(byDeactivation.pty.detach(), "s1", "a deactivation before the reason detaches");
  byDeactivation.pty.closedBecause(false);
  assert.equal(byDeactivation.socket.closed, 1, "and the late reason changes nothing");

  const notOpen = new FakeSocket();
  const never = ptyWith(notOpen);
  never.pty.open(undefined);
  never.pty.close();
  assert.equal(notOpen.closed, 1, "a terminal the hub never named a session for closes at once");
});

test("with no reason from VS Code, a closed terminal's shell is hung up after the wait", async (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  const { socket, pty } = withSession("s2");
  pty.close();
  t.mock.timers.tick(CLOSE_VERDICT_MS - 1);
  assert.equal(socket.closed, 0);
  t.mock.timers.tick(1);
  assert.equal(socket.closed, 1);
  assert.deepEqual(socket.texts, []);
});

test("a deactivation detaches the open hub terminals, remembers them in a file, and the next start reattaches them on their sessions", async () => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "rh-terminals-")), "storage", "detached-terminals.json");
  const remembered = fileMemory(file);
  const sockets: FakeSocket[] = [];
  const urls: string[] = [];
  const face: TerminalFace = {
    board: new BoardModel(new DecisionBook(), new WorkspaceModel(() => new RoundhouseApi(new FakeBridge()))),
    hub: () => ({ url: "http://127.0.0.1:7420", token: "secret" }),
    socket: (url) => { urls.push(url); const s = new FakeSocket(); sockets.push(s); return s; },
  };
  const first: { dispose(): unknown }[] = [];
  registerTerminalCommands({ subscriptions: first }, face, remembered);
  await commands.executeCommand("roundhouse.openTerminalInTask", { kind: "task", task: { id: 7, project_id: 1, title: "Deploy", status: "in_progress" } });
  const pty = recorder.terminals[0].options.pty as HubPty;
  pty.open({ columns: 80, rows: 24 });
  sockets[0].open();
  sockets[0].control({ type: "session", id: "s7", pid: 4242 });
  first.forEach((s) => s.dispose());

  detachTerminals();
  assert.deepEqual(sockets[0].texts.map((t) => JSON.parse(t)), [{ type: "detach" }]);
  const saved = JSON.parse(fs.readFileSync(file, "utf8")) as { name: string; session: string; at: number }[];
  assert.deepEqual(saved.map(({ name, session }) => ({ name, session })), [{ name: "Roundhouse #7", session: "s7" }], "written at once");
  assert.ok(Math.abs(saved[0].at - Date.now()) < 60000, "with when it was detached");
  // one detached long ago is not reopened: its session is gone
  fs.writeFileSync(file, JSON.stringify([...saved, { name: "Roundhouse #3", session: "s3", at: Date.now() - REATTACH_WITHIN_MS - 1 }]));

  recorder.reset();
  const second: { dispose(): unknown }[] = [];
  registerTerminalCommands({ subscriptions: second }, face, remembered);
  try {
    assert.equal(recorder.terminals.length, 1, "the detached terminal is reopened");
    assert.equal(recorder.terminals[0].options.name, "Roundhouse #7");
    assert.equal(recorder.terminals[0].shown, 0, "reopened without taking the focus");
    (recorder.terminals[0].options.pty as HubPty).open({ columns: 100, rows: 30 });
    assert.equal(urls[1], "ws://127.0.0.1:7420/api/x/pty?session=s7&columns=100&rows=30");
    assert.deepEqual(remembered.read(), [], "reattached once, not at every start");
    sockets[1].open();
    sockets[1].control({ type: "session", id: "s7", pid: 4242 });
    const reopened = recorder.terminals[0].options.pty as HubPty;
    reopened.close();
    terminalClosed.fire({ creationOptions: recorder.terminals[0].options, exitStatus: { code: undefined, reason: TerminalExitReason.User } });
    assert.equal(sockets[1].closed, 1, "the user closing it hangs the shell up");
    assert.deepEqual(sockets[1].texts, []);
  } finally {
    second.forEach((s) => s.dispose());
  }
});

test("a terminal VS Code closes because the window goes away is detached and remembered; an unreadable memory reads as none", () => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "rh-terminals-")), "detached-terminals.json");
  fs.writeFileSync(file, "{not json");
  const remembered = fileMemory(file);
  assert.deepEqual(remembered.read(), []);
  const sockets: FakeSocket[] = [];
  const face: TerminalFace = {
    board: new BoardModel(new DecisionBook(), new WorkspaceModel(() => new RoundhouseApi(new FakeBridge()))),
    hub: () => ({ url: "http://127.0.0.1:7420", token: "secret" }),
    socket: () => { const s = new FakeSocket(); sockets.push(s); return s; },
  };
  const subscriptions: { dispose(): unknown }[] = [];
  registerTerminalCommands({ subscriptions }, face, remembered);
  try {
    const pty = hubTerminal(face, { project: "web" }, "Roundhouse web");
    pty.open(undefined);
    sockets[0].open();
    sockets[0].control({ type: "session", id: "s3", pid: 7 });
    pty.close();
    terminalClosed.fire({ creationOptions: { name: "Roundhouse web", pty }, exitStatus: { code: undefined, reason: TerminalExitReason.Shutdown } });
    assert.deepEqual(sockets[0].texts.map((t) => JSON.parse(t)), [{ type: "detach" }]);
    assert.deepEqual(remembered.read().map(({ name, session }) => ({ name, session })), [{ name: "Roundhouse web", session: "s3" }]);
    detachTerminals();
    assert.equal(remembered.read().length, 1, "remembered once");
  } finally {
    subscriptions.forEach((s) => s.dispose());
  }
});
