// A webview panel for TranscriptPanel over the fake DOM: the page's script runs only when the test says the
// webview has loaded (as a real webview loads after the extension set its HTML), and until then whatever the
// extension posts is lost, as in VS Code.
import type * as vscode from "vscode";
import { Page, runPage } from "./fakeDom";

export interface FakePanel {
  readonly panel: vscode.WebviewPanel;
  /** Messages the extension posted while no page listened (dropped, as a real webview drops them). */
  readonly lost: unknown[];
  /** Runs the page's script now: it says "ready" to the extension. */
  load(): Page;
  /** The user closes the panel. */
  close(): void;
}

export function fakePanel(title = "#7"): FakePanel {
  let html = "";
  let page: Page | undefined;
  let receive: (message: unknown) => void = () => undefined;
  let onDispose: () => void = () => undefined;
  const lost: unknown[] = [];
  const webview = {
    options: {},
    cspSource: "vscode-resource:",
    get html(): string { return html; },
    set html(value: string) { html = value; },
    onDidReceiveMessage: (listener: (message: unknown) => void) => { receive = listener; return { dispose: () => undefined }; },
    postMessage: (message: unknown): Promise<boolean> => {
      if (page) {
        page.send(message);
      } else {
        lost.push(message);
      }
      return Promise.resolve(page !== undefined);
    },
  };
  let disposed = false;
  const panel = {
    title,
    webview,
    reveal: () => undefined,
    onDidDispose: (listener: () => void) => { onDispose = listener; return { dispose: () => undefined }; },
    dispose: () => {
      if (!disposed) {
        disposed = true;
        onDispose();
      }
    },
  };
  return {
    panel: panel as unknown as vscode.WebviewPanel,
    lost,
    load: () => {
      page = runPage(html, (message) => setImmediate(() => receive(message))); // a webview posts asynchronously
      return page;
    },
    close: () => panel.dispose(),
  };
}
