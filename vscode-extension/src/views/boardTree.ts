import * as vscode from "vscode";
import { BoardModel, BoardNode, isWorkspaceNode } from "../model/board";

/** The board view: projects, then tasks grouped by status. Clicking a task opens its transcript. */
export class BoardTreeProvider implements vscode.TreeDataProvider<BoardNode> {
  private readonly changed = new vscode.EventEmitter<BoardNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  /** The view showing this tree (createTreeView), for revealing a task. */
  view: vscode.TreeView<BoardNode> | undefined;

  constructor(private readonly model: BoardModel) {}

  refresh(): void {
    this.changed.fire(undefined);
  }

  /** Board nodes come from what was read; a task's changes and reviews are read when first expanded. */
  async getChildren(node?: BoardNode): Promise<BoardNode[]> {
    if (node && isWorkspaceNode(node) && this.model.workspace) {
      return this.model.workspace.children(node);
    }
    return [...this.model.children(node)];
  }

  getParent(node: BoardNode): BoardNode | undefined {
    return this.model.parent(node);
  }

  /**
   * Shows a task (a just-filed one): its project and column unfold and it is selected, without taking the
   * focus. Answers whether the board holds it.
   */
  async reveal(task: number): Promise<boolean> {
    const node = this.model.taskNode(task);
    if (!node || !this.view) {
      return false;
    }
    await this.view.reveal(node, { select: true, focus: false, expand: false });
    return true;
  }

  getTreeItem(node: BoardNode): vscode.TreeItem {
    const view = this.model.view(node);
    const state = !view.expandable
      ? vscode.TreeItemCollapsibleState.None
      : view.expanded ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed;
    const item = new vscode.TreeItem(view.label, state);
    item.id = view.id;
    item.description = view.description;
    item.tooltip = view.tooltip;
    item.contextValue = view.contextValue;
    item.iconPath = new vscode.ThemeIcon(view.icon);
    item.accessibilityInformation = { label: view.ariaLabel ?? [view.label, view.description].filter((s) => s).join(", ") };
    if (node.kind === "task") {
      item.command = { command: "roundhouse.openTranscript", title: "Open Transcript", arguments: [node] };
    } else if (node.kind === "file" || node.kind === "comment") {
      item.command = { command: "roundhouse.openChange", title: "Open Change", arguments: [node] };
    } else if (node.kind === "service") {
      item.command = { command: "roundhouse.showServiceLogs", title: "Show Logs", arguments: [node] };
    }
    return item;
  }
}
