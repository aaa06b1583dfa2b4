import * as vscode from "vscode";
import { DecisionBook, decisionContext, decisionHeadline, optionLabel, proposalView } from "../model/decisions";
import { Decision } from "../protocol/types";

/** The "Needs you" view: every pending decision, oldest first. Clicking one shows it with its options. */
export class NeedsYouTreeProvider implements vscode.TreeDataProvider<Decision> {
  private readonly changed = new vscode.EventEmitter<Decision | undefined>();
  readonly onDidChangeTreeData = this.changed.event;

  constructor(private readonly book: DecisionBook) {}

  refresh(): void {
    this.changed.fire(undefined);
  }

  getChildren(decision?: Decision): Decision[] {
    return decision ? [] : [...this.book.pending];
  }

  getTreeItem(decision: Decision): vscode.TreeItem {
    const item = new vscode.TreeItem(decisionHeadline(decision), vscode.TreeItemCollapsibleState.None);
    item.id = `decision:${decision.id}`;
    item.description = decision.options.map(optionLabel).join(" / ");
    const proposal = proposalView(decision);
    item.tooltip = [decision.message ?? "", ...(proposal ? proposal.diff : [])].filter((l) => l.length > 0).join("\n");
    item.contextValue = decisionContext(decision);
    item.iconPath = new vscode.ThemeIcon(decision.kind === "calendar_proposal" ? "calendar" : decision.kind === "permission" ? "shield" : "question");
    item.command = { command: "roundhouse.showDecision", title: "Show Decision", arguments: [decision] };
    return item;
  }
}
