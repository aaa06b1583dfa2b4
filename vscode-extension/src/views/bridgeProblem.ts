import * as vscode from "vscode";

/**
 * The one notification saying the bridge is not running, and why. A cancellable progress notification (the
 * one kind an extension can close) so it goes away by itself when the bridge runs again; its actions are
 * links: Open Settings, Show Output, Restart the Bridge. Showing the same sentence again keeps the one up; a
 * new sentence replaces it. Used on the extension host's one thread.
 */
export class BridgeProblem implements vscode.Disposable {
  private current: { readonly message: string; readonly close: vscode.CancellationTokenSource } | undefined;

  get shown(): string | undefined {
    return this.current?.message;
  }

  show(message: string): void {
    if (this.current?.message === message) {
      return;
    }
    this.clear();
    const close = new vscode.CancellationTokenSource();
    const shown = { message, close };
    this.current = shown;
    const links = [
      "[Open Settings](command:workbench.action.openSettings?%5B%22roundhouse.server%22%5D)",
      "[Show Output](command:roundhouse.showOutput)",
      "[Restart the Bridge](command:roundhouse.restartServer)",
    ];
    void vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `${message.replace(/\]\(/g, "] (")}  ${links.join(" · ")}`, cancellable: true },
      (_progress, dismissed) => new Promise<void>((resolve) => {
        const listeners = [close.token, dismissed].map((token) => token.onCancellationRequested(() => {
          listeners.forEach((listener) => listener.dispose());
          resolve();
        }));
      }),
    ).then(() => {
      if (this.current === shown) {
        this.current = undefined; // dismissed by the user
      }
    });
  }

  /** The bridge runs (again): the notification goes. */
  clear(): void {
    const shown = this.current;
    this.current = undefined;
    shown?.close.cancel();
  }

  dispose(): void {
    this.clear();
  }
}
