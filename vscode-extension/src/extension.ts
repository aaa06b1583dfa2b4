import * as path from "path";
import * as vscode from "vscode";
import { registerCommands } from "./commands";
import { Roundhouse } from "./roundhouse";
import { DIFF_SCHEME, DiffContentProvider } from "./views/diffContent";
import { DECISION_SCHEME } from "./views/decisionDocuments";
import { registerWorkspaceCommands } from "./workspaceCommands";
import { registerScheduleCommands } from "./scheduleCommands";
import { detachTerminals, fileMemory, hubFromSettings, registerTerminalCommands } from "./terminalCommands";
import { registerHubCommands } from "./hubCommands";

let roundhouse: Roundhouse | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const rh = new Roundhouse(context.secrets);
  roundhouse = rh;
  context.subscriptions.push(
    rh,
    rh.boardTree.view = vscode.window.createTreeView("roundhouse.board", { treeDataProvider: rh.boardTree, showCollapseAll: true }),
    vscode.window.registerTreeDataProvider("roundhouse.needsYou", rh.needsYouTree),
    vscode.window.registerTreeDataProvider("roundhouse.schedules", rh.schedulesTree),
    vscode.window.registerTreeDataProvider("roundhouse.runbooks", rh.runbooksTree),
    vscode.workspace.registerTextDocumentContentProvider(DIFF_SCHEME, new DiffContentProvider()),
    vscode.workspace.registerTextDocumentContentProvider(DECISION_SCHEME, rh.decisionPrompts.documents),
  );
  registerCommands(context, rh);
  registerWorkspaceCommands(context, rh);
  registerScheduleCommands(context, rh);
  registerTerminalCommands(context, { board: rh.board, hub: () => rh.remoteHub ?? hubFromSettings() },
    fileMemory(path.join((context.storageUri ?? context.globalStorageUri).fsPath, "detached-terminals.json")));
  registerHubCommands(context, rh);
  await rh.start();
}

export function deactivate(): void {
  detachTerminals(); // a window reload keeps the hub shells; the next start reattaches them
  roundhouse?.dispose();
  roundhouse = undefined;
}
