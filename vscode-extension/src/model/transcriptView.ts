// What the transcript webview is sent: a window over the model's items (never the whole transcript), and
// the item updates within it. No vscode here; the panel posts these messages as they are.

import { TranscriptItem, TranscriptModel } from "./transcript";

export type ToWebview =
  | { readonly type: "reset"; readonly items: readonly TranscriptItem[]; readonly start: number; readonly total: number }
  | { readonly type: "upsert"; readonly items: readonly TranscriptItem[]; readonly start: number; readonly total: number }
  | { readonly type: "state"; readonly text: string };

export type FromWebview =
  | { readonly type: "answer"; readonly decision: number; readonly option: string }
  /** "Answer…" on a question without options: the extension opens the input box. */
  | { readonly type: "answerText"; readonly decision: number }
  | { readonly type: "showEarlier" }
  | { readonly type: "ready" };

export function isFromWebview(value: unknown): value is FromWebview {
  if (typeof value !== "object" || value === null) {
    return false;
  }
  const message = value as Record<string, unknown>;
  switch (message.type) {
    case "answer":
      return typeof message.decision === "number" && typeof message.option === "string";
    case "answerText":
      return typeof message.decision === "number";
    case "showEarlier":
    case "ready":
      return true;
    default:
      return false;
  }
}

/**
 * Which part of the transcript the view shows: the newest `size` items, growing by `size` each time the
 * user asks for earlier ones. Follows the tail as items are appended.
 */
export class TranscriptWindow {
  private shown: number;

  constructor(private readonly model: TranscriptModel, private readonly size: number) {
    this.shown = size;
  }

  get start(): number {
    return Math.max(0, this.model.size - this.shown);
  }

  /** The whole window, for a first render or after it grew. */
  reset(): ToWebview {
    return { type: "reset", items: this.model.window(this.start, this.model.size), start: this.start, total: this.model.size };
  }

  showEarlier(): ToWebview {
    this.shown += this.size;
    return this.reset();
  }

  /** The changes since the last call: an upsert of the changed items inside the window, or none. */
  changes(): ToWebview | undefined {
    const { keys } = this.model.takeChanges();
    if (keys.size === 0) {
      return undefined;
    }
    const start = this.start;
    const items = this.model.window(start, this.model.size).filter((item) => keys.has(item.key));
    return items.length === 0 ? undefined : { type: "upsert", items, start, total: this.model.size };
  }
}

/**
 * What is sent to a webview that may not be listening yet. A webview drops every message posted before its
 * script runs, so nothing is sent until it says "ready" (the handshake); then it gets a fresh window and the
 * latest state line, which stand for everything held back (item updates before that are in the window). A
 * webview that reloads says "ready" again and gets the same. Not thread-safe: used on the extension host's
 * one thread.
 */
export class WebviewOutbox {
  private listening = false;
  private lastState: ToWebview | undefined;

  constructor(private readonly window: TranscriptWindow, private readonly send: (message: ToWebview) => void) {}

  get ready(): boolean {
    return this.listening;
  }

  post(message: ToWebview): void {
    if (message.type === "state") {
      this.lastState = message;
    }
    if (this.listening) {
      this.send(message);
    }
  }

  /** The webview's script runs and listens: the whole window, then the latest state. */
  opened(): void {
    this.listening = true;
    this.send(this.window.reset());
    if (this.lastState) {
      this.send(this.lastState);
    }
  }
}
