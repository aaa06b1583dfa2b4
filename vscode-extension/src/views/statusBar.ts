import * as vscode from "vscode";
import { statusBarText } from "../model/board";

/** Running turns and pending decisions; a click opens the "Needs you" list. */
export class RoundhouseStatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;

  constructor() {
    this.item = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left, 50);
    this.item.command = "roundhouse.showNeedsYou";
    this.update(0, 0);
    this.item.show();
  }

  update(running: number, pending: number): void {
    const { text, tooltip } = statusBarText(running, pending);
    this.item.text = text;
    this.item.tooltip = tooltip;
  }

  disconnected(reason: string): void {
    this.item.text = "$(debug-disconnect) Roundhouse";
    this.item.tooltip = reason;
  }

  get text(): string {
    return this.item.text;
  }

  dispose(): void {
    this.item.dispose();
  }
}
