import * as vscode from "vscode";
import { registerCommands } from "./commands";
import { Roundhouse } from "./roundhouse";

let roundhouse: Roundhouse | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const rh = new Roundhouse();
  roundhouse = rh;
  context.subscriptions.push(
    rh,
    vscode.window.registerTreeDataProvider("roundhouse.board", rh.boardTree),
    vscode.window.registerTreeDataProvider("roundhouse.needsYou", rh.needsYouTree),
  );
  registerCommands(context, rh);
  await rh.start();
}

export function deactivate(): void {
  roundhouse?.dispose();
  roundhouse = undefined;
}
