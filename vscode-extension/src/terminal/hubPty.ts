// A hub terminal as a VS Code Pseudoterminal: keystrokes go to the hub's PTY as binary frames, its output comes
// back as binary frames, resizes are {"type":"resize"} text frames, and the hub's {"type":"exit","code":N} ends
// the terminal with that code (docs/http.md, Terminals). Closing the terminal closes the socket, which hangs up
// the shell on the hub. The socket is behind a small interface so tests give a fake one.

import * as vscode from "vscode";

/** What the pseudoterminal needs of a WebSocket (the `ws` package in the extension, a fake in tests). */
export interface PtySocket {
  sendBytes(data: Uint8Array): void;
  sendText(text: string): void;
  close(): void;
  onOpen(listener: () => void): void;
  onMessage(listener: (data: Uint8Array | string) => void): void;
  onClose(listener: (code: number, reason: string) => void): void;
  onError(listener: (error: Error) => void): void;
}

export interface Size {
  readonly columns: number;
  readonly rows: number;
}

/** Opens the socket once VS Code gives the first size. */
export type PtyConnector = (size: Size | undefined) => PtySocket;

/** How long a closed terminal waits for VS Code's reason before its shell is hung up. */
export const CLOSE_VERDICT_MS = 5000;

export class HubPty implements vscode.Pseudoterminal {
  private readonly writes = new vscode.EventEmitter<string>();
  private readonly closes = new vscode.EventEmitter<number | void>();
  readonly onDidWrite = this.writes.event;
  readonly onDidClose = this.closes.event;
  private socket: PtySocket | undefined;
  private open_ = false;
  private pending: Uint8Array[] = [];
  private exitCode: number | undefined;
  private session: string | undefined;
  private ended = false;
  /** Set while VS Code has closed the terminal and the reason is not known yet. */
  private closing: ReturnType<typeof setTimeout> | undefined;
  private readonly decoder = new TextDecoder("utf-8");

  constructor(private readonly connect: PtyConnector, private readonly describe: string) {}

  open(initialDimensions: vscode.TerminalDimensions | undefined): void {
    const size = initialDimensions ? { columns: initialDimensions.columns, rows: initialDimensions.rows } : undefined;
    let socket: PtySocket;
    try {
      socket = this.connect(size);
    } catch (error) {
      this.fail(error instanceof Error ? error.message : String(error));
      return;
    }
    this.socket = socket;
    socket.onOpen(() => {
      this.open_ = true;
      for (const data of this.pending) {
        socket.sendBytes(data);
      }
      this.pending = [];
    });
    socket.onMessage((data) => (typeof data === "string" ? this.control(data) : this.writes.fire(this.decoder.decode(data, { stream: true }))));
    socket.onClose((code, reason) => this.end(code === 1000 || this.exitCode !== undefined ? undefined : `the hub closed the terminal (${code}${reason ? ` ${reason}` : ""})`));
    socket.onError((error) => this.end(`the terminal's connection failed: ${error.message}`));
  }

  handleInput(data: string): void {
    const bytes = new TextEncoder().encode(data);
    if (this.open_ && this.socket) {
      this.socket.sendBytes(bytes);
    } else if (!this.ended) {
      this.pending.push(bytes);
    }
  }

  setDimensions(dimensions: vscode.TerminalDimensions): void {
    if (this.open_ && this.socket) {
      this.socket.sendText(JSON.stringify({ type: "resize", columns: dimensions.columns, rows: dimensions.rows }));
    }
  }

  /**
   * VS Code is going away (deactivate): tells the hub to keep the shell for its reattach grace period and closes
   * the socket. Returns the session to reattach, or undefined when there is none (never opened, or ended): then
   * nothing is kept. A terminal VS Code has closed for a reason not yet known is detached too.
   */
  detach(): string | undefined {
    const session = this.session;
    if (session === undefined || !this.open_ || !this.socket || (this.ended && this.closing === undefined)) {
      return undefined;
    }
    this.settle();
    this.ended = true;
    this.socket.sendText(JSON.stringify({ type: "detach" }));
    this.socket.close();
    return session;
  }

  /**
   * VS Code closed the terminal. It calls this alike when the user closes it and when the window reloads, so the
   * shell's fate waits for {@link closedBecause} (VS Code's exit reason) or a deactivation; with neither within
   * {@link CLOSE_VERDICT_MS} the shell is hung up, as a close means. Before the hub gave a session, at once.
   */
  close(): void {
    if (this.ended) {
      return;
    }
    this.ended = true;
    if (this.session === undefined || !this.open_ || !this.socket) {
      this.socket?.close();
      return;
    }
    this.closing = setTimeout(() => this.closedBecause(false), CLOSE_VERDICT_MS);
  }

  /** Why VS Code closed the terminal: the window went away (keep the shell to reattach) or not (hang it up). */
  closedBecause(shutdown: boolean): void {
    if (this.closing === undefined) {
      return;
    }
    if (shutdown) {
      this.detach();
    } else {
      this.settle();
      this.socket?.close(); // the hub hangs up the shell's process group
    }
  }

  private settle(): void {
    clearTimeout(this.closing);
    this.closing = undefined;
  }

  private control(text: string): void {
    try {
      const message = JSON.parse(text) as { type?: string; code?: number; id?: unknown };
      if (message.type === "exit" && typeof message.code === "number") {
        this.exitCode = message.code;
      } else if (message.type === "session" && typeof message.id === "string") {
        this.session = message.id;
      }
    } catch {
      // not a control message we know
    }
  }

  private end(problem: string | undefined): void {
    if (this.ended) {
      return;
    }
    this.ended = true;
    if (problem !== undefined && this.exitCode === undefined) {
      this.fail(problem);
      return;
    }
    this.closes.fire(this.exitCode ?? 0);
  }

  private fail(problem: string): void {
    this.ended = true;
    this.writes.fire(`\r\n\x1b[31mRoundhouse: ${problem} (${this.describe})\x1b[0m\r\n`);
    this.closes.fire(1);
  }
}
