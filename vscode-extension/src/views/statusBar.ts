import * as vscode from "vscode";
import { statusBarText } from "../model/board";
import { ConnectionState, connectionStatus } from "../model/reconnect";

/**
 * Running turns and pending decisions; a click opens the "Needs you" list. With a remote hub, while not
 * connected it shows the connection's state instead (connecting, retrying in N s, signed out, not connected).
 */
export class RoundhouseStatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private counts = { running: 0, pending: 0 };
  /** The connection's text while it is not up, shown over the counts. */
  private override: { text: string; tooltip: string } | undefined;

  constructor() {
    this.item = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left, 50);
    this.item.command = "roundhouse.showNeedsYou";
    this.update(0, 0);
    this.item.show();
  }

  update(running: number, pending: number): void {
    this.counts = { running, pending };
    this.render();
  }

  disconnected(reason: string): void {
    this.override = { text: "$(debug-disconnect) Roundhouse", tooltip: reason };
    this.render();
  }

  /** The remote hub's connection state; connected shows the counts again. */
  connection(state: ConnectionState, hub: string): void {
    this.override = connectionStatus(state, hub);
    this.item.command = state.kind === "signedOut" ? "roundhouse.signIn" : "roundhouse.showNeedsYou";
    this.render();
  }

  /** The local bridge runs: the counts again. */
  connected(): void {
    this.override = undefined;
    this.render();
  }

  private render(): void {
    const { text, tooltip } = this.override ?? statusBarText(this.counts.running, this.counts.pending);
    this.item.text = text;
    this.item.tooltip = tooltip;
  }

  get text(): string {
    return this.item.text;
  }

  dispose(): void {
    this.item.dispose();
  }
}
