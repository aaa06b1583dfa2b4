// A small stand-in for the `vscode` module: the parts the extension's views use, recording what they show
// and answering prompts from a script the test sets. Not the real API; just enough to run our code.

export interface Disposable { dispose(): void }

export class EventEmitter<T> {
  private listeners: ((value: T) => void)[] = [];
  readonly event = (listener: (value: T) => void): Disposable => {
    this.listeners.push(listener);
    return { dispose: () => { this.listeners = this.listeners.filter((l) => l !== listener); } };
  };
  fire(value: T): void {
    this.listeners.forEach((l) => l(value));
  }
  dispose(): void {
    this.listeners = [];
  }
}

export enum TreeItemCollapsibleState { None = 0, Collapsed = 1, Expanded = 2 }
export enum StatusBarAlignment { Left = 1, Right = 2 }
export enum ViewColumn { Active = -1, One = 1 }

export class ThemeIcon {
  constructor(readonly id: string) {}
}

export class TreeItem {
  id?: string;
  description?: string;
  tooltip?: string;
  contextValue?: string;
  iconPath?: ThemeIcon;
  command?: { command: string; title: string; arguments?: unknown[] };
  constructor(readonly label: string, readonly collapsibleState: TreeItemCollapsibleState = TreeItemCollapsibleState.None) {}
}

export interface Shown { readonly kind: string; readonly message: string; readonly items: readonly string[] }

/** What the code under test showed, and how the "user" answers: set `answers` before acting. */
export const recorder = {
  shown: [] as Shown[],
  documents: [] as { content: string; language: string }[],
  /** Answers for message prompts, quick picks and input boxes, in order; undefined dismisses. */
  answers: [] as (string | undefined)[],
  reset(): void {
    this.shown = [];
    this.documents = [];
    this.answers = [];
  },
};

function nextAnswer(): string | undefined {
  return recorder.answers.shift();
}

function message(kind: string) {
  return (text: string, ...items: string[]): Promise<string | undefined> => {
    recorder.shown.push({ kind, message: text, items });
    return Promise.resolve(nextAnswer());
  };
}

export class StatusBarItemStub {
  text = "";
  tooltip: string | undefined;
  command: string | undefined;
  visible = false;
  show(): void { this.visible = true; }
  hide(): void { this.visible = false; }
  dispose(): void { this.visible = false; }
}

export const window = {
  showWarningMessage: message("warning"),
  showInformationMessage: message("information"),
  showErrorMessage: message("error"),
  showQuickPick<T extends { label: string } | string>(items: readonly T[], options?: { placeHolder?: string; title?: string }): Promise<T | undefined> {
    const labels = items.map((i) => (typeof i === "string" ? i : i.label));
    recorder.shown.push({ kind: "quickPick", message: options?.title ?? options?.placeHolder ?? "", items: labels });
    const answer = nextAnswer();
    return Promise.resolve(items.find((_, index) => labels[index] === answer));
  },
  showInputBox(options?: { prompt?: string; title?: string }): Promise<string | undefined> {
    recorder.shown.push({ kind: "inputBox", message: options?.title ?? options?.prompt ?? "", items: [] });
    return Promise.resolve(nextAnswer());
  },
  showTextDocument(document: unknown): Promise<unknown> {
    return Promise.resolve(document);
  },
  createStatusBarItem(): StatusBarItemStub {
    return new StatusBarItemStub();
  },
  setStatusBarMessage(text: string): Disposable {
    recorder.shown.push({ kind: "statusBarMessage", message: text, items: [] });
    return { dispose: () => undefined };
  },
};

export const workspace = {
  openTextDocument(options: { content: string; language: string }): Promise<{ content: string; language: string }> {
    recorder.documents.push(options);
    return Promise.resolve(options);
  },
};
