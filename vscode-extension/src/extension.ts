import * as vscode from "vscode";
import { registerCommands } from "./commands";
import { Roundhouse } from "./roundhouse";
import { DIFF_SCHEME, DiffContentProvider } from "./views/diffContent";
import { registerWorkspaceCommands } from "./workspaceCommands";
import { registerScheduleCommands } from "./scheduleCommands";
import { hubFromSettings, registerTerminalCommands } from "./terminalCommands";

let roundhouse: Roundhouse | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const rh = new Roundhouse();
  roundhouse = rh;
  context.subscriptions.push(
    rh,
    vscode.window.registerTreeDataProvider("roundhouse.board", rh.boardTree),
    vscode.window.registerTreeDataProvider("roundhouse.needsYou", rh.needsYouTree),
    vscode.window.registerTreeDataProvider("roundhouse.schedules", rh.schedulesTree),
    vscode.window.registerTreeDataProvider("roundhouse.runbooks", rh.runbooksTree),
    vscode.workspace.registerTextDocumentContentProvider(DIFF_SCHEME, new DiffContentProvider()),
  );
  registerCommands(context, rh);
  registerWorkspaceCommands(context, rh);
  registerScheduleCommands(context, rh);
  registerTerminalCommands(context, { board: rh.board, hub: hubFromSettings });
  await rh.start();
}

export function deactivate(): void {
  roundhouse?.dispose();
  roundhouse = undefined;
}
