import * as vscode from "vscode";
import { DecisionBook, decisionAriaLabel, decisionContext, decisionLabel, optionLabel, proposalView } from "../model/decisions";
import { Decision } from "../protocol/types";

/** The one row of an empty list, once the decisions were read (before that the view stays empty). */
export const NOTHING = { nothing: true } as const;
export type NeedsYouNode = Decision | typeof NOTHING;

/**
 * The "Needs you" view: every pending decision, oldest first, or "Nothing needs you". Clicking one shows it
 * with its options.
 */
export class NeedsYouTreeProvider implements vscode.TreeDataProvider<NeedsYouNode> {
  private readonly changed = new vscode.EventEmitter<NeedsYouNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;

  constructor(private readonly book: DecisionBook) {}

  refresh(): void {
    this.changed.fire(undefined);
  }

  getChildren(node?: NeedsYouNode): NeedsYouNode[] {
    if (node) {
      return [];
    }
    return this.book.size === 0 && this.book.loaded ? [NOTHING] : [...this.book.pending];
  }

  getTreeItem(node: NeedsYouNode): vscode.TreeItem {
    if ("nothing" in node) {
      const item = new vscode.TreeItem("Nothing needs you", vscode.TreeItemCollapsibleState.None);
      item.id = "nothing";
      item.tooltip = "No decision is waiting for you: permissions, questions and proposals show here";
      item.iconPath = new vscode.ThemeIcon("check");
      item.accessibilityInformation = { label: "Nothing needs you" };
      return item;
    }
    const decision = node;
    // Never an empty label or tooltip: VS Code names the row from them (a decision without a message was read
    // as ", has actions").
    const item = new vscode.TreeItem(decisionLabel(decision), vscode.TreeItemCollapsibleState.None);
    item.id = `decision:${decision.id}`;
    item.description = decision.options.length > 0 ? decision.options.map(optionLabel).join(" / ") : "answer with text";
    const proposal = proposalView(decision);
    const aria = decisionAriaLabel(decision);
    item.tooltip = [aria, ...(proposal ? proposal.diff : [])].join("\n");
    item.accessibilityInformation = { label: aria };
    item.contextValue = decisionContext(decision);
    item.iconPath = new vscode.ThemeIcon(decision.kind === "calendar_proposal" ? "calendar" : decision.kind === "permission" ? "shield" : "question");
    item.command = { command: "roundhouse.showDecision", title: "Show Decision", arguments: [decision] };
    return item;
  }
}
