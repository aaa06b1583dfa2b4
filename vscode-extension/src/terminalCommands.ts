// A hub terminal as a native VS Code terminal: the "Roundhouse (hub)" terminal profile (a shell in a project's
// folder, the project picked when there are several) and "Open Terminal in Task" on a board task (a shell in
// the task's working directory: the hub picks its worktree from `task`). When VS Code goes away (a window
// reload), open hub terminals detach and are reattached, with their recent output, when the extension starts
// again within the hub's grace period. See docs/vscode.md.

import * as fs from "fs";
import * as path from "path";
import * as vscode from "vscode";
import { BoardModel, BoardNode } from "./model/board";
import { Project, Task } from "./protocol/types";
import { TERMINAL_COMMAND_IDS, TERMINAL_PROFILE_ID } from "./commands-ids";
import { HubAddress, locateHub, ptyUrl } from "./terminal/hubAddress";
import { HubPty, PtySocket } from "./terminal/hubPty";
import { wsSocket } from "./terminal/wsSocket";

/** Where a terminal runs: a project's folder or a task's working directory; or a detached session to reattach. */
export interface TerminalPlace {
  readonly project?: string;
  readonly task?: number;
  readonly session?: string;
}

/** A hub terminal left detached when VS Code went away (`at`, epoch ms), to reattach when the extension starts again. */
export interface DetachedTerminal {
  readonly name: string;
  readonly session: string;
  readonly at: number;
}

/**
 * Older than this, a detached terminal is not reopened: its session is long gone (the hub keeps one 5 minutes by
 * default), and a window opened the next day should not greet the user with dead terminals.
 */
export const REATTACH_WITHIN_MS = 60 * 60 * 1000;

/**
 * Where the detached terminals are remembered until the next start. Written at once (synchronously) as each one
 * detaches: a window going away may not leave time for anything asynchronous.
 */
export interface TerminalMemory {
  read(): DetachedTerminal[];
  write(terminals: readonly DetachedTerminal[]): void;
}

/** A JSON file (in the extension's storage folder for this workspace); unreadable or missing reads as none. */
export function fileMemory(file: string): TerminalMemory {
  return {
    read: () => {
      try {
        const list = JSON.parse(fs.readFileSync(file, "utf8")) as unknown;
        return Array.isArray(list) ? list.filter((t): t is DetachedTerminal => typeof t?.name === "string" && typeof t?.session === "string" && typeof t?.at === "number") : [];
      } catch {
        return [];
      }
    },
    write: (terminals) => {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, JSON.stringify(terminals));
    },
  };
}

/** The hub terminals open in this window, by pseudoterminal (their names kept for a reattach). */
const open = new Map<HubPty, string>();
let memory: TerminalMemory | undefined;

/** What the terminal commands need (Roundhouse gives the board; tests give a fake socket). */
export interface TerminalFace {
  readonly board: BoardModel;
  /** The hub's address and token; throws a sentence when there is no hub. */
  hub(): HubAddress;
  /** Opens a WebSocket to {@code url}; the `ws` package unless a test gives another. */
  socket?(url: string, hub: HubAddress): PtySocket;
}

/** The hub's address from the environment and the roundhouse.server.env setting, like the bridge sees it. */
export function hubFromSettings(): HubAddress {
  const extra = vscode.workspace.getConfiguration("roundhouse").get<Record<string, string>>("server.env") ?? {};
  return locateHub({ ...process.env, ...extra }, (file) => fs.readFileSync(file, "utf8"));
}

/** A pseudoterminal for a hub terminal at {@code place}; the socket opens when VS Code shows it. */
export function hubTerminal(face: TerminalFace, place: TerminalPlace, name: string): HubPty {
  const pty = new HubPty((size) => {
    const hub = face.hub();
    const url = ptyUrl(hub, place, size);
    return face.socket ? face.socket(url, hub) : wsSocket(url, hub);
  }, name);
  open.set(pty, name);
  pty.onDidClose(() => open.delete(pty)); // the shell ended, or the connection failed
  return pty;
}

/**
 * VS Code is going away (deactivate): every open hub terminal detaches, so its shell waits on the hub for the
 * reattach grace period (5 minutes by default), and is remembered for the next start.
 */
export function detachTerminals(): void {
  for (const pty of [...open.keys()]) {
    detach(pty);
  }
}

function detach(pty: HubPty): void {
  const name = open.get(pty);
  open.delete(pty);
  const session = pty.detach();
  if (session !== undefined && name !== undefined && memory) {
    memory.write([...memory.read(), { name, session, at: Date.now() }]);
  }
}

/** Tells a closed hub terminal why VS Code closed it: a window going away keeps its shell to reattach. */
function closedTerminal(terminal: vscode.Terminal): void {
  const pty = (terminal.creationOptions as vscode.ExtensionTerminalOptions).pty;
  if (!(pty instanceof HubPty)) {
    return;
  }
  if (terminal.exitStatus?.reason === vscode.TerminalExitReason.Shutdown) {
    detach(pty);
  } else {
    open.delete(pty);
    pty.closedBecause(false);
  }
}

/** Reopens the terminals the last window detached, each on its session (not shown: focus stays put). */
function reattachTerminals(face: TerminalFace, remembered: TerminalMemory): void {
  const detached = remembered.read();
  if (detached.length === 0) {
    return;
  }
  remembered.write([]);
  for (const { name, session, at } of detached) {
    if (Date.now() - at < REATTACH_WITHIN_MS) {
      vscode.window.createTerminal({ name, pty: hubTerminal(face, { session }, name) });
    }
  }
}

function taskOf(arg: unknown): Task | undefined {
  const n = typeof arg === "object" && arg !== null ? (arg as BoardNode) : undefined;
  return n && "task" in n ? n.task : undefined;
}

export function registerTerminalCommands(context: { subscriptions: { dispose(): unknown }[] }, face: TerminalFace, remembered?: TerminalMemory): void {
  memory = remembered;
  context.subscriptions.push(vscode.window.onDidCloseTerminal(closedTerminal));
  if (memory) {
    reattachTerminals(face, memory);
  }
  const [openInTask] = TERMINAL_COMMAND_IDS;
  context.subscriptions.push(vscode.commands.registerCommand(openInTask, async (arg: unknown) => {
    let task = taskOf(arg);
    if (!task) {
      const picked = await vscode.window.showQuickPick(
        face.board.tasks().map((t) => ({ label: `#${t.id} ${t.title}`, task: t })),
        { placeHolder: "Open a terminal in which task's worktree?" },
      );
      task = picked?.task;
    }
    if (!task) {
      return undefined;
    }
    const name = `Roundhouse #${task.id}`;
    const terminal = vscode.window.createTerminal({ name, pty: hubTerminal(face, { task: task.id }, name) });
    terminal.show();
    return terminal;
  }));
  context.subscriptions.push(vscode.window.registerTerminalProfileProvider(TERMINAL_PROFILE_ID, {
    provideTerminalProfile: async () => {
      const project = await pickProject(face.board.projects);
      if (!project) {
        return undefined;
      }
      const name = `Roundhouse ${project.name}`;
      return new vscode.TerminalProfile({ name, pty: hubTerminal(face, { project: project.name }, name) });
    },
  }));
}

async function pickProject(projects: readonly Project[]): Promise<Project | undefined> {
  if (projects.length === 1) {
    return projects[0];
  }
  if (projects.length === 0) {
    void vscode.window.showWarningMessage("Roundhouse: no project on the board yet; a hub terminal opens in a project's folder");
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(projects.map((p) => ({ label: p.name, project: p })),
    { placeHolder: "Open a hub terminal in which project?" });
  return picked?.project;
}
