// Starts `roundhouse lsp` with vscode-languageclient (or, with roundhouse.hub.url set, connects it to the hub's
// /api/lsp WebSocket) and adapts the client to the protocol layer.

import * as vscode from "vscode";
import {
  CancellationToken, CloseAction, ErrorAction, LanguageClient, LanguageClientOptions, ServerOptions, StaticFeature,
} from "vscode-languageclient/node";
import { CancellationSignal, Disposable, RpcConnection } from "./protocol/connection";
import { CLIENT_CAPABILITY } from "./protocol/methods";
import { LaunchSettings, launchProblem, quietErrors } from "./model/launch";
import { HubSocket, openHubSocket } from "./protocol/hubSocket";

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
    // Without a handler the client pops its own error ("Pending response rejected since connection got
    // disposed" when the bridge exits during initialize) besides ours: log it, give up, start() rejects.
    initializationFailedHandler: (error) => {
      output.error(`the bridge failed to initialize: ${error instanceof Error ? error.message : String(error)}`);
      return false;
    },
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
  // Its errors go to the output only: the extension says what went wrong, once (BridgeProblem).
  const client = quietErrors(new LanguageClient("roundhouse", "Roundhouse", serverOptions, clientOptions));
  client.registerFeature(new RoundhouseFeature());
  return client;
}

/**
 * A client over a remote hub's WebSocket: no process, no local Java. It never restarts itself: when the socket
 * closes `onLost` says so and the Reconnector decides when to try again (with a new client). A refused upgrade
 * is kept for `lastFailure` (the client's start() wraps the error it fails with).
 */
export function createRemoteClient(
  url: string, token: string, output: vscode.LogOutputChannel, onLost: (reason: string) => void,
): { client: LanguageClient; lastFailure: () => unknown } {
  let failure: unknown;
  let socket: HubSocket | undefined;
  const serverOptions: ServerOptions = async () => {
    try {
      socket = await openHubSocket(url, token);
    } catch (error) {
      failure = error;
      throw error;
    }
    socket.onClose((code, reason) => {
      output.info(`the hub's WebSocket closed (${code}${reason ? `: ${reason}` : ""})`);
      onLost(reason || `the connection closed (${code})`);
    });
    return { reader: socket.reader, writer: socket.writer };
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [],
    outputChannel: output,
    initializationFailedHandler: (error) => {
      output.error(`the hub's bridge failed to initialize: ${error instanceof Error ? error.message : String(error)}`);
      return false;
    },
    errorHandler: {
      error: () => ({ action: ErrorAction.Continue }),
      closed: () => ({ action: CloseAction.DoNotRestart, handled: true }),
    },
  };
  const client = quietErrors(new LanguageClient("roundhouse", "Roundhouse", serverOptions, clientOptions));
  client.registerFeature(new RoundhouseFeature());
  return { client, lastFailure: () => failure };
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
