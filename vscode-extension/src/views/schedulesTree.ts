import * as vscode from "vscode";
import { NodeView } from "../model/board";
import { RunbookNode, ScheduleModel, ScheduleNode } from "../model/schedules";

function treeItem(view: NodeView): vscode.TreeItem {
  const state = !view.expandable
    ? vscode.TreeItemCollapsibleState.None
    : view.expanded ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed;
  const item = new vscode.TreeItem(view.label, state);
  item.id = view.id;
  item.description = view.description;
  item.tooltip = view.tooltip;
  item.contextValue = view.contextValue;
  item.iconPath = new vscode.ThemeIcon(view.icon);
  return item;
}

/**
 * The Schedules view: the scheduler's warning when it looks stuck or is off, then projects with their
 * schedules (next firing, last outcome); a schedule's recent runs when expanded. Clicking a run opens its task's
 * transcript. Redrawn whenever the model changes.
 */
export class SchedulesTreeProvider implements vscode.TreeDataProvider<ScheduleNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<ScheduleNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly listening: { dispose(): void };

  constructor(private readonly model: ScheduleModel) {
    this.listening = model.onChange(() => this.refresh());
  }

  refresh(): void {
    this.changed.fire(undefined);
  }

  getChildren(node?: ScheduleNode): Promise<ScheduleNode[]> {
    return this.model.scheduleChildren(node);
  }

  getTreeItem(node: ScheduleNode): vscode.TreeItem {
    const item = treeItem(this.model.view(node));
    if (node.kind === "run" && node.task_id !== undefined) {
      item.command = { command: "roundhouse.openRunTranscript", title: "Open Transcript", arguments: [node] };
    }
    return item;
  }

  dispose(): void {
    this.listening.dispose();
  }
}

/** The Runbooks view: runbooks by name with project and driver; Run is an inline action. */
export class RunbooksTreeProvider implements vscode.TreeDataProvider<RunbookNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<RunbookNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly listening: { dispose(): void };

  constructor(private readonly model: ScheduleModel) {
    this.listening = model.onChange(() => this.refresh());
  }

  refresh(): void {
    this.changed.fire(undefined);
  }

  getChildren(node?: RunbookNode): RunbookNode[] {
    return this.model.runbookChildren(node);
  }

  getTreeItem(node: RunbookNode): vscode.TreeItem {
    return treeItem(this.model.view(node));
  }

  dispose(): void {
    this.listening.dispose();
  }
}
