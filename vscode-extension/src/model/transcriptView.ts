// What the transcript webview is sent: a window over the model's items (never the whole transcript), and
// the item updates within it. No vscode here; the panel posts these messages as they are.

import { TranscriptItem, TranscriptModel } from "./transcript";

export type ToWebview =
  | { readonly type: "reset"; readonly items: readonly TranscriptItem[]; readonly start: number; readonly total: number }
  | { readonly type: "upsert"; readonly items: readonly TranscriptItem[]; readonly start: number; readonly total: number }
  | { readonly type: "state"; readonly text: string };

export type FromWebview =
  | { readonly type: "answer"; readonly decision: number; readonly option: string }
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
