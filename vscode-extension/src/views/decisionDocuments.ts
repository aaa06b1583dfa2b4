import * as vscode from "vscode";

export const DECISION_SCHEME = "roundhouse-decision";

/**
 * Serves `roundhouse-decision:` documents: a decision's details (a proposal's change as a diff), read-only.
 * An untitled document with the same text would be dirty, and closing it asked "Do you want to save the
 * changes?" after every decision the user looked at. Used on the extension host's one thread.
 */
export class DecisionDocuments implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();

  /** The document showing `text` for decision `id` (`.diff` when it is a proposal's change). */
  uri(id: number, text: string, diff: boolean): vscode.Uri {
    const uri = vscode.Uri.parse(`${DECISION_SCHEME}:/decision-${id}.${diff ? "diff" : "txt"}`);
    this.texts.set(uri.toString(), text);
    return uri;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? "This decision's details are no longer kept; open it again from Needs you.";
  }
}
