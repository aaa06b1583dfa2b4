// The commands for a task's workspace (changes, merge, sync, pull request, review) and a project's dev
// services (start, stop, restart, logs). Each works from a board node (its argument) or, from the command
// palette, asks for what it needs. Every write is a roundhouse/call.

import * as vscode from "vscode";
import { RoundhouseApi } from "./protocol/api";
import { describeError } from "./protocol/connection";
import { Project, ServiceView, Task } from "./protocol/types";
import { BoardModel, BoardNode, statusLabel } from "./model/board";
import { diffPlan } from "./model/diffSides";
import { commentThreads, fileOfComment, mergeSummary, serviceRunning, verdictLabel, WorkspaceModel, WorkspaceNode } from "./model/workspace";
import { ReviewComments } from "./views/reviewComments";
import { WORKSPACE_COMMAND_IDS } from "./commands-ids";
import { openDiff, sideToUri } from "./views/diffContent";
import { ServiceLogChannels } from "./views/serviceLogChannels";

/** What the commands need from the extension (Roundhouse implements it; tests give a small one). */
export interface WorkspaceFace {
  readonly api: RoundhouseApi;
  readonly board: BoardModel;
  readonly workspace: WorkspaceModel;
  readonly logs: ServiceLogChannels;
  /** Where a task's review comments show in the diff editor (none: not shown). */
  readonly reviewComments?: ReviewComments;
  /** Re-renders the trees (after the models changed). */
  changed(): void;
}

type Id = (typeof WORKSPACE_COMMAND_IDS)[number];
const REQUEST_CHANGES = "Request changes";
const APPROVE = "Approve";

function node(arg: unknown): BoardNode | undefined {
  return typeof arg === "object" && arg !== null && typeof (arg as { kind?: unknown }).kind === "string" ? (arg as BoardNode) : undefined;
}

export function registerWorkspaceCommands(context: { subscriptions: { dispose(): unknown }[] }, face: WorkspaceFace): void {
  const register = (id: Id, run: (arg: unknown) => Promise<unknown>): void => {
    context.subscriptions.push(vscode.commands.registerCommand(id, async (arg: unknown) => {
      try {
        await run(arg);
      } catch (error) {
        void vscode.window.showErrorMessage(`Roundhouse: ${describeError(error).replace(/^Roundhouse: /, "")}`);
      }
    }));
  };

  const pickTask = async (arg: unknown, placeHolder: string): Promise<Task | undefined> => {
    const n = node(arg);
    if (n && "task" in n) {
      return n.task;
    }
    const picked = await vscode.window.showQuickPick(
      face.board.tasks().map((task) => ({ label: `#${task.id} ${task.title}`, description: statusLabel(task.status), task })),
      { placeHolder },
    );
    return picked?.task;
  };

  const pickService = async (arg: unknown, placeHolder: string): Promise<{ project: Project; service: ServiceView } | undefined> => {
    const n = node(arg);
    if (n && n.kind === "service") {
      return { project: n.project, service: face.workspace.service(n.project.id, n.service.definition.name) ?? n.service };
    }
    const choices = face.board.projects.flatMap((project) => (face.workspace.services(project.id)?.services ?? [])
      .map((service) => ({ label: `${project.name}/${service.definition.name}`, description: service.state.status, project, service })));
    const picked = await vscode.window.showQuickPick(choices, { placeHolder });
    return picked ? { project: picked.project, service: picked.service } : undefined;
  };

  /** The task's diff changed (or may have): read it again when shown. */
  const touched = (task: number): void => {
    face.workspace.forgetTask(task);
    face.changed();
  };

  register("roundhouse.openChange", async (arg) => {
    const n = node(arg) as WorkspaceNode | undefined;
    if (!n || (n.kind !== "file" && n.kind !== "comment")) {
      throw new Error("Open Change works on a file under a task's Changes or a review comment");
    }
    const state = await face.workspace.loadChanges(n.task.id);
    if (state.state === "failed") {
      throw new Error(state.reason);
    }
    const file = n.kind === "file"
      ? state.diff.diff.files.find((f) => f.path === n.file.path) ?? n.file
      : fileOfComment(state, n.comment);
    if (!file) {
      throw new Error(`task ${n.task.id}'s diff no longer changes ${n.kind === "comment" ? n.comment.path : ""}`);
    }
    const plan = diffPlan(state.diff, state.workspace, file);
    if (file.binary) {
      await vscode.commands.executeCommand("vscode.open", sideToUri(plan.right, "task"));
      return;
    }
    await openDiff(plan, n.kind === "comment" ? n.comment.line : undefined);
    if (face.reviewComments && plan.right.kind === "file") {
      // The reviews' comments on this file, as threads on the task's side (read again after a review event).
      const reviews = await face.workspace.loadReviews(n.task.id);
      if (reviews.state === "loaded") {
        face.reviewComments.show(sideToUri(plan.right, "task"), commentThreads(reviews.reviews, file.path));
      }
    }
  });

  register("roundhouse.mergeTask", async (arg) => {
    const task = await pickTask(arg, "Merge which task into its base branch?");
    if (!task) {
      return;
    }
    const go = await vscode.window.showWarningMessage(`Merge #${task.id} ${task.title} into its base branch?`, { modal: true }, "Merge");
    if (go !== "Merge") {
      return;
    }
    const merged = await face.api.mergeTask(task.id);
    touched(task.id);
    const summary = mergeSummary("merge", merged);
    if (summary.level === "info") {
      void vscode.window.showInformationMessage(`Roundhouse: ${summary.text}`);
      return;
    }
    if (!summary.conflict) {
      void vscode.window.showWarningMessage(`Roundhouse: ${summary.text}`);
      return;
    }
    const ask = await vscode.window.showWarningMessage(`Roundhouse: ${summary.text}`, "Ask the agent");
    if (ask === "Ask the agent") {
      const asked = await face.api.mergeTask(task.id, true);
      void vscode.window.showInformationMessage(`Roundhouse: ${mergeSummary("merge", asked).text}`);
    }
  });

  register("roundhouse.syncTask", async (arg) => {
    const task = await pickTask(arg, "Bring the base branch into which task?");
    if (!task) {
      return;
    }
    const synced = await face.api.syncTask(task.id);
    touched(task.id);
    const summary = mergeSummary("sync", synced);
    void (summary.level === "info" ? vscode.window.showInformationMessage : vscode.window.showWarningMessage)(`Roundhouse: ${summary.text}`);
  });

  register("roundhouse.createPullRequest", async (arg) => {
    const task = await pickTask(arg, "Open a pull request for which task?");
    if (!task) {
      return;
    }
    const title = await vscode.window.showInputBox({ prompt: `Pull request title for #${task.id}`, value: task.title, validateInput: (v) => (v.trim() ? undefined : "A pull request needs a title") });
    if (title === undefined) {
      return;
    }
    const created = await face.api.createPullRequest(task.id, { title: title.trim() });
    touched(task.id);
    const pr = created.pull_request;
    const open = await vscode.window.showInformationMessage(`Roundhouse: opened pull request #${pr.number} for #${task.id}${pr.url ? ` (${pr.url})` : ""}`, ...(pr.url ? ["Open"] : []));
    if (open === "Open" && pr.url) {
      await vscode.env.openExternal(vscode.Uri.parse(pr.url));
    }
  });

  register("roundhouse.reviewTask", async (arg) => {
    const task = await pickTask(arg, "Review which task's changes?");
    if (!task) {
      return;
    }
    const verdict = await vscode.window.showQuickPick([APPROVE, REQUEST_CHANGES], { placeHolder: `Your verdict on #${task.id}'s changes` });
    if (verdict === undefined) {
      return;
    }
    const changes = verdict === REQUEST_CHANGES;
    const summary = await vscode.window.showInputBox({
      prompt: changes ? `What should change in #${task.id}?` : `Summary for #${task.id} (optional)`,
      validateInput: (v) => (changes && !v.trim() ? "Say what should change" : undefined),
    });
    if (summary === undefined || (changes && !summary.trim())) {
      return;
    }
    const review = await face.api.submitReview(task.id, changes ? "request_changes" : "approve", summary.trim());
    touched(task.id);
    void vscode.window.showInformationMessage(`Roundhouse: #${task.id} ${verdictLabel(review.verdict)}`);
  });

  const serviceAction = (action: "start" | "stop" | "restart") => async (arg: unknown): Promise<void> => {
    const picked = await pickService(arg, `${action[0].toUpperCase()}${action.slice(1)} which service?`);
    if (!picked) {
      return;
    }
    const state = await face.api.serviceAction(action, picked.project.id, picked.service.definition.name);
    const list = await face.workspace.loadProjectServices(picked.project.id);
    if (list) {
      await face.logs.servicesChanged(list);
    }
    face.changed();
    vscode.window.setStatusBarMessage(`Roundhouse: ${picked.project.name}/${state.name} ${state.status}${state.message ? ` — ${state.message}` : ""}`, 4000);
  };
  register("roundhouse.startService", serviceAction("start"));
  register("roundhouse.stopService", serviceAction("stop"));
  register("roundhouse.restartService", serviceAction("restart"));

  register("roundhouse.showServiceLogs", async (arg) => {
    const picked = await pickService(arg, "Show the logs of which service?");
    if (picked) {
      await face.logs.show(picked.project, picked.service.definition.name, serviceRunning(picked.service.state.status));
    }
  });
}
