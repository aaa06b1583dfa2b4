// The commands that choose the hub: "Sign in to Hub" (its URL in roundhouse.hub.url, its token in
// SecretStorage), "Sign out of Hub" (the token goes), and "Start Local Hub" (roundhouse.hub.url cleared: the
// local `roundhouse lsp`, which starts a hub in the background when none runs). See docs/vscode.md.

import * as vscode from "vscode";
import { bridgeUrl } from "./protocol/hubSocket";
import { hubTokenKey } from "./model/remoteHub";
import { HUB_COMMAND_IDS } from "./commands-ids";

/** What the commands need: restart the connection with the settings as they are now. */
export interface HubChooser {
  restart(): Promise<void>;
}

const DEFAULT_URL = "http://127.0.0.1:7420";

export function registerHubCommands(context: vscode.ExtensionContext, rh: HubChooser): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(HUB_COMMAND_IDS[0], () => signIn(context.secrets, rh)),
    vscode.commands.registerCommand(HUB_COMMAND_IDS[1], () => signOut(context.secrets, rh)),
    vscode.commands.registerCommand(HUB_COMMAND_IDS[2], () => startLocal(rh)),
    vscode.workspace.onDidChangeConfiguration((change) => {
      if (change.affectsConfiguration("roundhouse.hub.url")) {
        void rh.restart();
      }
    }),
  );
}

async function signIn(secrets: vscode.SecretStorage, rh: HubChooser): Promise<void> {
  const config = vscode.workspace.getConfiguration("roundhouse");
  const current = (config.get<string>("hub.url") ?? "").trim();
  const url = await vscode.window.showInputBox({
    title: "Roundhouse: Sign in to Hub (1/2)",
    prompt: "The hub's URL, as `roundhouse serve` printed it (a hub on another machine: its address, behind TLS)",
    value: current || DEFAULT_URL,
    ignoreFocusOut: true,
    validateInput: (value) => {
      try {
        bridgeUrl(value);
        return undefined;
      } catch (error) {
        return error instanceof Error ? error.message : String(error);
      }
    },
  });
  if (url === undefined) {
    return;
  }
  const token = await vscode.window.showInputBox({
    title: "Roundhouse: Sign in to Hub (2/2)",
    prompt: `The token of the hub at ${url.trim()}: the file token in its ROUNDHOUSE_HOME (~/.roundhouse/token on the hub's machine). Kept in VS Code's secret storage.`,
    password: true,
    ignoreFocusOut: true,
    validateInput: (value) => (value.trim() === "" ? "the token is the text of the hub's token file" : undefined),
  });
  if (token === undefined) {
    return;
  }
  await secrets.store(hubTokenKey(url), token.trim());
  if (url.trim() !== current) {
    // Where it is set already (this workspace, or for the user); else for the user. The change restarts.
    const inspected = config.inspect<string>("hub.url");
    const target = inspected?.workspaceValue !== undefined ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
    await config.update("hub.url", url.trim(), target);
  } else {
    await rh.restart();
  }
}

async function signOut(secrets: vscode.SecretStorage, rh: HubChooser): Promise<void> {
  const url = (vscode.workspace.getConfiguration("roundhouse").get<string>("hub.url") ?? "").trim();
  if (url === "") {
    void vscode.window.showInformationMessage("Roundhouse: no remote hub is set (roundhouse.hub.url); the local bridge needs no sign-in.");
    return;
  }
  await secrets.delete(hubTokenKey(url));
  await rh.restart();
}

async function startLocal(rh: HubChooser): Promise<void> {
  const config = vscode.workspace.getConfiguration("roundhouse");
  const inspected = config.inspect<string>("hub.url");
  const changes: Thenable<void>[] = [];
  if (inspected?.workspaceFolderValue !== undefined) {
    changes.push(config.update("hub.url", undefined, vscode.ConfigurationTarget.WorkspaceFolder));
  }
  if (inspected?.workspaceValue !== undefined) {
    changes.push(config.update("hub.url", undefined, vscode.ConfigurationTarget.Workspace));
  }
  if (inspected?.globalValue !== undefined) {
    changes.push(config.update("hub.url", undefined, vscode.ConfigurationTarget.Global));
  }
  if (changes.length > 0) {
    await Promise.all(changes); // the change restarts, in local mode
  } else {
    await rh.restart();
  }
}
