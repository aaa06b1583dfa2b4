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

export interface Shown { readonly kind: string; readonly message: string; readonly items: readonly string[]; readonly modal?: boolean }

export class Uri {
  private constructor(readonly scheme: string, readonly path: string, readonly query: string) {}
  static parse(text: string): Uri {
    const match = /^([a-z][a-z0-9+.-]*):([^?#]*)(?:\?([^#]*))?/i.exec(text);
    if (!match) {
      throw new Error(`not a URI: ${text}`);
    }
    return new Uri(match[1], decodeURIComponent(match[2].replace(/^\/\/[^/]*/, "")), match[3] ?? "");
  }
  static file(fsPath: string): Uri {
    return new Uri("file", fsPath, "");
  }
  get fsPath(): string {
    return this.path;
  }
  toString(): string {
    return `${this.scheme}:${this.path}${this.query ? `?${this.query}` : ""}`;
  }
}

export class Range {
  constructor(readonly startLine: number, readonly startCharacter: number, readonly endLine: number, readonly endCharacter: number) {}
}

/** An output channel that keeps its lines. */
export class OutputChannelStub {
  lines: string[] = [];
  shown = 0;
  disposed = false;
  constructor(readonly name: string) {}
  appendLine(line: string): void { this.lines.push(line); }
  append(text: string): void { this.lines.push(text); }
  show(): void { this.shown++; }
  hide(): void {}
  clear(): void { this.lines = []; }
  dispose(): void { this.disposed = true; }
}

/** What the code under test showed, and how the "user" answers: set `answers` before acting. */
export const recorder = {
  shown: [] as Shown[],
  documents: [] as { content: string; language: string }[],
  /** Answers for message prompts, quick picks and input boxes, in order; undefined dismisses. */
  answers: [] as (string | undefined)[],
  /** Commands executed that no one registered (vscode.diff, vscode.open, …), with their arguments. */
  executed: [] as { command: string; args: unknown[] }[],
  channels: [] as OutputChannelStub[],
  opened: [] as Uri[],
  providers: new Map<string, unknown>(),
  /** Terminals created (createTerminal's options) and terminal profile providers by id. */
  terminals: [] as { options: { name: string; pty: unknown }; shown: number }[],
  terminalProfiles: new Map<string, { provideTerminalProfile(): Promise<TerminalProfile | undefined> }>(),
  reset(): void {
    this.terminals = [];
    this.shown = [];
    this.documents = [];
    this.answers = [];
    this.executed = [];
    this.channels = [];
    this.opened = [];
  },
};

function nextAnswer(): string | undefined {
  return recorder.answers.shift();
}

function message(kind: string) {
  return (text: string, ...rest: unknown[]): Promise<string | undefined> => {
    const items = rest.filter((item): item is string => typeof item === "string");
    const modal = rest.some((item) => typeof item === "object" && item !== null && (item as { modal?: boolean }).modal === true);
    recorder.shown.push(modal ? { kind, message: text, items, modal } : { kind, message: text, items });
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

export interface TerminalDimensions { readonly columns: number; readonly rows: number }

export class TerminalProfile {
  constructor(readonly options: { name: string; pty: unknown }) {}
}

export const window = {
  createTerminal(options: { name: string; pty: unknown }): { show(): void; options: unknown } {
    const record = { options, shown: 0 };
    recorder.terminals.push(record);
    return { options, show: () => { record.shown++; } };
  },
  registerTerminalProfileProvider(id: string, provider: { provideTerminalProfile(): Promise<TerminalProfile | undefined> }): Disposable {
    recorder.terminalProfiles.set(id, provider);
    return { dispose: () => recorder.terminalProfiles.delete(id) };
  },
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
  createOutputChannel(name: string): OutputChannelStub {
    const channel = new OutputChannelStub(name);
    recorder.channels.push(channel);
    return channel;
  },
  setStatusBarMessage(text: string): Disposable {
    recorder.shown.push({ kind: "statusBarMessage", message: text, items: [] });
    return { dispose: () => undefined };
  },
};

const registered = new Map<string, (...args: unknown[]) => unknown>();

export const commands = {
  registerCommand(id: string, run: (...args: unknown[]) => unknown): Disposable {
    if (registered.has(id)) {
      throw new Error(`command ${id} is already registered`);
    }
    registered.set(id, run);
    return { dispose: () => registered.delete(id) };
  },
  executeCommand(id: string, ...args: unknown[]): Promise<unknown> {
    const run = registered.get(id);
    if (run) {
      return Promise.resolve(run(...args));
    }
    recorder.executed.push({ command: id, args });
    return Promise.resolve(undefined);
  },
};

export const env = {
  openExternal(uri: Uri): Promise<boolean> {
    recorder.opened.push(uri);
    return Promise.resolve(true);
  },
};

export const workspace = {
  registerTextDocumentContentProvider(scheme: string, provider: unknown): Disposable {
    recorder.providers.set(scheme, provider);
    return { dispose: () => recorder.providers.delete(scheme) };
  },
  openTextDocument(options: { content: string; language: string }): Promise<{ content: string; language: string }> {
    recorder.documents.push(options);
    return Promise.resolve(options);
  },
};
