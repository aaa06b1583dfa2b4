// Every command the extension contributes. Each works from a tree item (its argument) or, from the
// command palette, asks for what it needs.

import * as vscode from "vscode";
import { describeError } from "./protocol/connection";
import { Decision, Task, TaskStatus, TASK_STATUSES } from "./protocol/types";
import { BoardNode, statusLabel } from "./model/board";
import { PROMPT_COMMAND, approveOption, decisionHeadline, denyOption, isPromptAction } from "./model/decisions";
import { Roundhouse } from "./roundhouse";
import { COMMAND_IDS } from "./commands-ids";


/** The board's own nodes (the workspace's have their commands in workspaceCommands.ts). */
type BoardItem = Extract<BoardNode, { kind: "project" | "status" | "task" }>;

/** The columns a new task can go to, in the order offered; the first is the default. */
const NEW_TASK_COLUMNS: readonly TaskStatus[] = ["backlog", "todo", "in_progress", "review", "done"];
type Arg = BoardItem | Decision | undefined;

function isDecision(arg: unknown): arg is Decision {
  return typeof arg === "object" && arg !== null && "options" in arg && "kind" in arg && typeof (arg as Decision).id === "number";
}

function isNode(arg: unknown): arg is BoardItem {
  return typeof arg === "object" && arg !== null && "kind" in arg && ["project", "status", "task"].includes((arg as BoardNode).kind) && !isDecision(arg);
}

export function registerCommands(context: vscode.ExtensionContext, rh: Roundhouse): void {
  const register = (id: (typeof COMMAND_IDS)[number], run: (arg: Arg) => Promise<unknown>): void => {
    context.subscriptions.push(vscode.commands.registerCommand(id, async (arg: Arg) => {
      try {
        await run(arg);
      } catch (error) {
        void vscode.window.showErrorMessage(describeError(error).startsWith("Roundhouse") ? describeError(error) : `Roundhouse: ${describeError(error)}`);
      }
    }));
  };

  const pickTask = async (arg: Arg, placeHolder: string): Promise<Task | undefined> => {
    if (isNode(arg) && arg.kind === "task") {
      return arg.task;
    }
    if (isDecision(arg) && arg.task_id) {
      return rh.board.task(arg.task_id) ?? (await rh.api.task(arg.task_id));
    }
    const picked = await vscode.window.showQuickPick(
      rh.board.tasks().map((task) => ({ label: `#${task.id} ${task.title}`, description: statusLabel(task.status), task })),
      { placeHolder },
    );
    return picked?.task;
  };

  const pickDecision = async (arg: Arg): Promise<Decision | undefined> => {
    if (isDecision(arg)) {
      return arg;
    }
    const picked = await vscode.window.showQuickPick(
      rh.decisions.pending.map((decision) => ({ label: decisionHeadline(decision), description: decision.kind, decision })),
      { placeHolder: "Which decision?" },
    );
    return picked?.decision;
  };

  register("roundhouse.openBoard", () => Promise.resolve(vscode.commands.executeCommand("workbench.view.extension.roundhouse")));
  register("roundhouse.showNeedsYou", () => Promise.resolve(vscode.commands.executeCommand("roundhouse.needsYou.focus")));
  register("roundhouse.refresh", () => rh.refresh());
  register("roundhouse.restartServer", () => rh.restart());
  register("roundhouse.showOutput", () => Promise.resolve(rh.showOutput()));

  register("roundhouse.newTask", async (arg) => {
    let project = isNode(arg) && arg.kind !== "task" ? arg.project.name : undefined;
    if (isNode(arg) && arg.kind === "task") {
      project = rh.board.projects.find((p) => p.id === arg.task.project_id)?.name;
    }
    if (!project && rh.board.projects.length === 0) {
      await rh.refresh(); // the board is read once the bridge connects: a New Task right after start may come first
    }
    if (!project && rh.board.projects.length === 0) {
      throw new Error("Roundhouse: no project to file the task in: add one with `roundhouse project add NAME PATH` (or check the roundhouse.projects setting)");
    }
    if (!project) {
      const picked = await vscode.window.showQuickPick(rh.board.projects.map((p) => p.name), { placeHolder: "Project for the new task" });
      project = picked;
    }
    if (!project) {
      return;
    }
    const title = await vscode.window.showInputBox({ prompt: `New task in ${project}`, placeHolder: "Title", validateInput: (v) => (v.trim() ? undefined : "A task needs a title") });
    if (!title) {
      return;
    }
    const description = await vscode.window.showInputBox({ prompt: "Description (optional)" });
    // From a column's row, that column; else ask, Backlog first (the hub's default, picked by Enter).
    let status: TaskStatus | undefined = isNode(arg) && arg.kind === "status" ? arg.status : undefined;
    if (!status) {
      const picked = await vscode.window.showQuickPick(
        NEW_TASK_COLUMNS.map((column) => ({ label: statusLabel(column), description: column === "backlog" ? "default" : "", status: column })),
        { placeHolder: `Column for "${title.trim()}"`, title: `New task in ${project}` },
      );
      status = picked?.status;
    }
    if (!status) {
      return;
    }
    const task = await rh.api.createTask({ project, title: title.trim(), ...(description ? { description } : {}), status });
    vscode.window.setStatusBarMessage(`Roundhouse: filed #${task.id} ${task.title} in ${statusLabel(status)}`, 5000);
    await rh.refresh();
    await rh.boardTree.reveal(task.id); // its column unfolds and it is selected
  });

  register("roundhouse.startTurn", async (arg) => {
    const task = await pickTask(arg, "Start a turn on which task?");
    if (!task) {
      return;
    }
    const message = await vscode.window.showInputBox({ prompt: `Message for the agent on #${task.id} (empty: run the oldest queued message)` });
    if (message === undefined) {
      return;
    }
    await rh.api.startTurn(task.id, message.trim() === "" ? undefined : message);
    await rh.openTranscript(task.id);
  });

  register("roundhouse.sendMessage", async (arg) => {
    const task = await pickTask(arg, "Send a message to which task?");
    if (!task) {
      return;
    }
    const message = await vscode.window.showInputBox({ prompt: `Message for #${task.id}`, validateInput: (v) => (v.trim() ? undefined : "Type a message") });
    if (!message) {
      return;
    }
    const sent = await rh.api.sendMessage(task.id, message);
    vscode.window.setStatusBarMessage(`Roundhouse: message ${sent.delivery}`, 4000);
  });

  register("roundhouse.stopTurn", async (arg) => {
    const task = await pickTask(arg, "Stop the turn of which task?");
    if (task) {
      await rh.api.stopTurn(task.id);
    }
  });

  register("roundhouse.openTranscript", async (arg) => {
    const task = await pickTask(arg, "Open the transcript of which task?");
    if (task) {
      await rh.openTranscript(task.id);
    }
  });

  register("roundhouse.moveTask", async (arg) => {
    const task = await pickTask(arg, "Move which task?");
    if (!task) {
      return;
    }
    const picked = await vscode.window.showQuickPick(
      TASK_STATUSES.filter((s) => s !== task.status).map((status) => ({ label: statusLabel(status), status })),
      { placeHolder: `Move #${task.id} to` },
    );
    if (picked) {
      await rh.api.moveTask(task.id, picked.status as TaskStatus);
      await rh.refresh();
    }
  });

  register("roundhouse.editTask", async (arg) => {
    const task = await pickTask(arg, "Edit which task?");
    if (!task) {
      return;
    }
    const field = await vscode.window.showQuickPick(["Title", "Description", "Priority", "Tags"], { placeHolder: `Edit #${task.id}: which field?` });
    if (field === "Priority") {
      const priority = await vscode.window.showQuickPick(["low", "normal", "high", "urgent"], { placeHolder: "Priority" });
      if (priority) {
        await rh.api.updateTask(task.id, { priority: priority as Task["priority"] });
      }
    } else if (field === "Title" || field === "Description" || field === "Tags") {
      const current = field === "Title" ? task.title : field === "Description" ? task.description ?? "" : (task.tags ?? []).join(", ");
      const value = await vscode.window.showInputBox({ prompt: `${field} of #${task.id}${field === "Tags" ? " (comma-separated)" : ""}`, value: current });
      if (value === undefined) {
        return;
      }
      const edit = field === "Title" ? { title: value } : field === "Description" ? { description: value } : { tags: value.split(",").map((t) => t.trim()).filter((t) => t) };
      await rh.api.updateTask(task.id, edit);
    } else {
      return;
    }
    await rh.refresh();
  });

  register("roundhouse.acceptSuggestion", async (arg) => {
    const task = await pickTask(arg, "Accept which suggestion?");
    if (task) {
      await rh.api.updateTask(task.id, { suggested: false });
      await rh.refresh();
    }
  });

  const answerWith = (pick: (d: Decision) => string | undefined, what: string) => async (arg: Arg): Promise<void> => {
    const decision = await pickDecision(arg);
    if (!decision) {
      return;
    }
    const option = pick(decision);
    if (!option) {
      throw new Error(`decision ${decision.id} (${decision.kind}) has no option to ${what}; its options are ${decision.options.join(", ") || "free text"}`);
    }
    await rh.decisionPrompts.answer(decision, option);
  };
  register("roundhouse.approve", answerWith(approveOption, "approve"));
  register("roundhouse.deny", answerWith(denyOption, "deny"));
  register("roundhouse.answerDecision", async (arg) => {
    const decision = await pickDecision(arg);
    if (decision) {
      await rh.decisionPrompts.choose(decision);
    }
  });
  // A link in a decision's notification: [decision id, {option} | {show} | {text}].
  context.subscriptions.push(vscode.commands.registerCommand(PROMPT_COMMAND, async (id: unknown, action: unknown) => {
    if (typeof id === "number" && isPromptAction(action)) {
      await rh.decisionPrompts.fromPrompt(id, action);
    }
  }));
  register("roundhouse.showDecision", async (arg) => {
    const decision = await pickDecision(arg);
    if (decision) {
      await rh.decisionPrompts.show(decision);
    }
  });
}
