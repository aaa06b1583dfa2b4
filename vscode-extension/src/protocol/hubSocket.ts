// The bridge protocol over a remote hub's WebSocket (/api/lsp, docs/lsp-protocol.md): one JSON-RPC message per
// text frame, as vscode-jsonrpc's MessageReader and MessageWriter, so vscode-languageclient (or a plain
// MessageConnection in tests) runs over it with no local Java. The token goes in the upgrade's Authorization
// header; a refused upgrade rejects with the hub's own sentence. No vscode here.

import WebSocket from "ws";
import { AbstractMessageReader, AbstractMessageWriter, DataCallback, Disposable, Message, MessageReader, MessageWriter } from "vscode-jsonrpc/node";

export const BRIDGE_PATH = "/api/lsp";

/**
 * The bridge's WebSocket URL for the roundhouse.hub.url setting: http(s) becomes ws(s), a path prefix (a hub
 * behind a proxy) is kept. Throws with the setting named when it is not an http(s) or ws(s) URL.
 */
export function bridgeUrl(hubUrl: string): string {
  let url: URL;
  try {
    url = new URL(hubUrl.trim());
  } catch {
    throw new Error(`roundhouse.hub.url must be the hub's URL, such as http://127.0.0.1:7420, not ${JSON.stringify(hubUrl)}`);
  }
  const scheme = { "http:": "ws:", "https:": "wss:", "ws:": "ws:", "wss:": "wss:" }[url.protocol];
  if (scheme === undefined || url.search !== "" || url.hash !== "") {
    throw new Error(`roundhouse.hub.url must be an http:// or https:// URL without query or fragment, such as http://127.0.0.1:7420, not ${JSON.stringify(hubUrl)}`);
  }
  const base = url.pathname.replace(/\/+$/, "");
  return `${scheme}//${url.host}${base}${BRIDGE_PATH}`;
}

/** The hub answered the upgrade with an HTTP error: `status` (401 a wrong or missing token, 403 a refused Origin or Host). */
export class HubRefused extends Error {
  constructor(readonly status: number, readonly reason: string, url: string) {
    super(`the hub at ${url} refused the connection (HTTP ${status}): ${reason}`);
    this.name = "HubRefused";
  }

  /** True when signing in again (another token) is the fix. */
  get needsSignIn(): boolean {
    return this.status === 401;
  }
}

export interface HubSocketOptions {
  /** An Origin header to send (a browser would; the hub refuses a foreign one). Node sends none by default. */
  readonly origin?: string;
  /** How long the upgrade may take, in ms. */
  readonly timeoutMs?: number;
}

/** An open socket to the bridge: its reader and writer, and the socket's end. */
export interface HubSocket {
  readonly reader: MessageReader;
  readonly writer: MessageWriter;
  /** Runs once when the socket closes, for whatever reason (the hub stopped, the network, close()). */
  onClose(listener: (code: number, reason: string) => void): void;
  close(): void;
}

/** Opens the bridge's WebSocket; rejects with HubRefused when the hub refuses it, or an Error naming the URL. */
export function openHubSocket(url: string, token: string | undefined, options: HubSocketOptions = {}): Promise<HubSocket> {
  const headers: Record<string, string> = { "User-Agent": "roundhouse-vscode" };
  if (token !== undefined) {
    headers.Authorization = `Bearer ${token}`;
  }
  const socket = new WebSocket(url, {
    headers, handshakeTimeout: options.timeoutMs ?? 10000, origin: options.origin, maxPayload: 64 * 1024 * 1024,
  });
  return new Promise<HubSocket>((resolve, reject) => {
    let settled = false;
    const fail = (error: Error): void => {
      if (!settled) {
        settled = true;
        socket.terminate();
        reject(error);
      }
    };
    socket.on("unexpected-response", (_request, response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => {
        const body = Buffer.concat(chunks).toString("utf8");
        let reason: string;
        try {
          reason = (JSON.parse(body) as { error?: { message?: string } }).error?.message ?? body;
        } catch {
          reason = body.trim() || (response.statusMessage ?? "no reason given");
        }
        fail(new HubRefused(response.statusCode ?? 0, reason, url));
      });
      response.on("error", (error: Error) => fail(error));
    });
    socket.on("error", (error: Error) => fail(new Error(`cannot reach the hub at ${url}: ${error.message}`)));
    socket.on("open", () => {
      if (!settled) {
        settled = true;
        resolve(wrap(socket));
      }
    });
  });
}

function wrap(socket: WebSocket): HubSocket {
  const reader = new SocketReader(socket);
  const writer = new SocketWriter(socket);
  const closeListeners: Array<(code: number, reason: string) => void> = [];
  socket.on("close", (code: number, reason: Buffer) => {
    closeListeners.splice(0).forEach((listener) => listener(code, reason.toString("utf8")));
  });
  return {
    reader,
    writer,
    onClose: (listener) => closeListeners.push(listener),
    close: () => socket.close(1000, "closed in VS Code"),
  };
}

/** Each text frame is one message. A frame that is not JSON is reported as an error; reading goes on. */
class SocketReader extends AbstractMessageReader implements MessageReader {
  constructor(private readonly socket: WebSocket) {
    super();
    socket.on("close", () => this.fireClose());
    socket.on("error", (error: Error) => this.fireError(error));
  }

  listen(callback: DataCallback): Disposable {
    const onMessage = (data: Buffer, isBinary: boolean): void => {
      if (isBinary) {
        this.fireError(new Error("the hub sent a binary frame; the bridge speaks JSON text frames"));
        return;
      }
      let message: Message;
      try {
        message = JSON.parse(data.toString("utf8")) as Message;
      } catch (error) {
        this.fireError(new Error(`the hub sent a frame that is not JSON: ${error instanceof Error ? error.message : String(error)}`));
        return;
      }
      callback(message);
    };
    this.socket.on("message", onMessage);
    return { dispose: () => this.socket.off("message", onMessage) };
  }
}

/** Each message is one text frame; a write on a closed socket fails (the connection reports it). */
class SocketWriter extends AbstractMessageWriter implements MessageWriter {
  private errors = 0;

  constructor(private readonly socket: WebSocket) {
    super();
    socket.on("close", () => this.fireClose());
  }

  write(message: Message): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (this.socket.readyState !== WebSocket.OPEN) {
        const error = new Error("the connection to the hub is closed");
        this.fireError(error, message, ++this.errors);
        reject(error);
        return;
      }
      this.socket.send(JSON.stringify(message), { binary: false }, (error) => {
        if (error) {
          this.fireError(error, message, ++this.errors);
          reject(error);
        } else {
          resolve();
        }
      });
    });
  }

  end(): void {
    this.socket.close(1000, "closed in VS Code");
  }
}
