// The `ws` package as a PtySocket: it sends the token in the Authorization header of the upgrade (a browser's
// WebSocket could not; the hub also accepts a roundhouse.token.<token> subprotocol there, docs/http.md).

import WebSocket from "ws";
import { HubAddress } from "./hubAddress";
import { PtySocket } from "./hubPty";

export function wsSocket(url: string, hub: HubAddress): PtySocket {
  const socket = new WebSocket(url, { headers: { Authorization: `Bearer ${hub.token}`, "User-Agent": "roundhouse-vscode" } });
  socket.binaryType = "nodebuffer";
  let refused: string | undefined;
  socket.on("unexpected-response", (_request, response) => {
    const chunks: Buffer[] = [];
    response.on("data", (chunk: Buffer) => chunks.push(chunk));
    response.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      try {
        refused = (JSON.parse(body) as { error?: { message?: string } }).error?.message ?? body;
      } catch {
        refused = `status ${response.statusCode}`;
      }
      socket.emit("error", new Error(`the hub refused the terminal: ${refused}`));
    });
  });
  return {
    sendBytes: (data) => socket.send(data, { binary: true }),
    sendText: (text) => socket.send(text, { binary: false }),
    close: () => socket.close(1000, "closed in VS Code"),
    onOpen: (listener) => socket.on("open", listener),
    onMessage: (listener) => socket.on("message", (data: Buffer, isBinary: boolean) => listener(isBinary ? new Uint8Array(data) : data.toString("utf8"))),
    onClose: (listener) => socket.on("close", (code: number, reason: Buffer) => listener(code, reason.toString("utf8"))),
    onError: (listener) => socket.on("error", listener),
  };
}
