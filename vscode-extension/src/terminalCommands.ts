// A hub terminal as a native VS Code terminal: the "Roundhouse (hub)" terminal profile (a shell in a project's
// folder, the project picked when there are several) and "Open Terminal in Task" on a board task (a shell in
// the task's working directory: the hub picks its worktree from `task`). See docs/vscode.md.

import * as fs from "fs";
import * as vscode from "vscode";
import { BoardModel, BoardNode } from "./model/board";
import { Project, Task } from "./protocol/types";
import { TERMINAL_COMMAND_IDS, TERMINAL_PROFILE_ID } from "./commands-ids";
import { HubAddress, locateHub, ptyUrl } from "./terminal/hubAddress";
import { HubPty, PtySocket } from "./terminal/hubPty";
import { wsSocket } from "./terminal/wsSocket";

/** Where a terminal runs: a project's folder or a task's working directory. */
export interface TerminalPlace {
  readonly project?: string;
  readonly task?: number;
}

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
  return new HubPty((size) => {
    const hub = face.hub();
    const url = ptyUrl(hub, place, size);
    return face.socket ? face.socket(url, hub) : wsSocket(url, hub);
  }, name);
}

function taskOf(arg: unknown): Task | undefined {
  const n = typeof arg === "object" && arg !== null ? (arg as BoardNode) : undefined;
  return n && "task" in n ? n.task : undefined;
}

export function registerTerminalCommands(context: { subscriptions: { dispose(): unknown }[] }, face: TerminalFace): void {
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
