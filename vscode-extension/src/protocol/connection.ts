// The one thing the protocol layer needs from a JSON-RPC connection. vscode-languageclient's LanguageClient
// and vscode-languageserver-protocol's MessageConnection both fit it through a small adapter.

export interface Disposable {
  dispose(): void;
}

/** A cancellation signal in the shape of vscode-jsonrpc's CancellationToken. */
export interface CancellationSignal {
  readonly isCancellationRequested: boolean;
  onCancellationRequested(listener: () => void): Disposable;
}

export interface RpcConnection {
  sendRequest<R>(method: string, params: object, token?: CancellationSignal): Promise<R>;
  onNotification(method: string, handler: (params: unknown) => void): Disposable;
}

/** A JSON-RPC error as the bridge sends it: code, message and, for hub errors, data.hub_code. */
export interface RpcError {
  readonly code: number;
  readonly message: string;
  readonly data?: { readonly hub_code?: string; readonly status?: number };
}

export function isRpcError(value: unknown): value is RpcError {
  return typeof value === "object" && value !== null && typeof (value as { code?: unknown }).code === "number"
    && typeof (value as { message?: unknown }).message === "string";
}

/** The sentence to show for a failed request: the bridge's message (it names what was wrong). */
export function describeError(error: unknown): string {
  if (isRpcError(error)) {
    return error.message;
  }
  if (error instanceof Error) {
    return error.message;
  }
  return String(error);
}

export const ErrorCodes = {
  methodNotFound: -32601,
  invalidParams: -32602,
  requestCancelled: -32800,
  requestFailed: -32803,
} as const;
