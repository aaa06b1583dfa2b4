// Starts `roundhouse lsp` with vscode-languageclient and adapts the client to the protocol layer.

import * as vscode from "vscode";
import {
  CancellationToken, CloseAction, ErrorAction, LanguageClient, LanguageClientOptions, ServerOptions, StaticFeature,
} from "vscode-languageclient/node";
import { CancellationSignal, Disposable, RpcConnection } from "./protocol/connection";
import { CLIENT_CAPABILITY } from "./protocol/methods";
import { LaunchSettings, launchProblem } from "./model/launch";

/** Puts capabilities.experimental.roundhouse in `initialize`, so the bridge sends roundhouse/* notifications. */
class RoundhouseFeature implements StaticFeature {
  fillClientCapabilities(capabilities: { experimental?: object }): void {
    capabilities.experimental = { ...(capabilities.experimental ?? {}), ...CLIENT_CAPABILITY };
  }
  getState(): { kind: "static" } {
    return { kind: "static" };
  }
  initialize(): void {}
  clear(): void {}
}

export function createClient(settings: LaunchSettings, output: vscode.LogOutputChannel, onFatal: (message: string) => void): LanguageClient {
  const serverOptions: ServerOptions = {
    command: settings.command,
    args: [...settings.args],
    options: { env: { ...process.env, ...settings.env } },
  };
  let restarts = 0;
  const clientOptions: LanguageClientOptions = {
    documentSelector: [],
    outputChannel: output,
    errorHandler: {
      error: () => ({ action: ErrorAction.Continue }),
      closed: () => {
        restarts++;
        if (restarts > 4) {
          const message = launchProblem(settings, "the bridge stopped 5 times");
          onFatal(message);
          return { action: CloseAction.DoNotRestart, message, handled: true };
        }
        return { action: CloseAction.Restart, handled: true };
      },
    },
  };
  const client = new LanguageClient("roundhouse", "Roundhouse", serverOptions, clientOptions);
  client.registerFeature(new RoundhouseFeature());
  return client;
}

/** The client as the protocol layer's connection. */
export function rpcConnection(client: LanguageClient): RpcConnection {
  return {
    sendRequest<R>(method: string, params: object, token?: CancellationSignal): Promise<R> {
      return token === undefined ? client.sendRequest<R>(method, params) : client.sendRequest<R>(method, params, token as CancellationToken);
    },
    onNotification(method: string, handler: (params: unknown) => void): Disposable {
      return client.onNotification(method, handler);
    },
  };
}
