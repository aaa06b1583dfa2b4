import * as vscode from "vscode";
import { DIFF_SCHEME, DiffPlan, DiffSide, GitRunner, parseSide, runGit, sideContent, sideUri } from "../model/diffSides";

/** Serves `roundhouse-diff:` documents: a file at a commit of the task's repository (empty without one). */
export class DiffContentProvider implements vscode.TextDocumentContentProvider {
  constructor(private readonly git: GitRunner = runGit) {}

  provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    return sideContent(parseSide(uri.path, uri.query), this.git);
  }
}

export function sideToUri(side: DiffSide, which: "base" | "task"): vscode.Uri {
  return side.kind === "file" ? vscode.Uri.file(side.fsPath) : vscode.Uri.parse(sideUri(side.side, which));
}

/** Opens VS Code's diff editor on a plan; `line` (1-based, in the task's version) is selected. */
export async function openDiff(plan: DiffPlan, line?: number): Promise<void> {
  const options: vscode.TextDocumentShowOptions = { preview: true };
  if (line !== undefined && line > 0) {
    options.selection = new vscode.Range(line - 1, 0, line - 1, 0);
  }
  await vscode.commands.executeCommand("vscode.diff", sideToUri(plan.left, "base"), sideToUri(plan.right, "task"), plan.title, options);
}

export { DIFF_SCHEME };
