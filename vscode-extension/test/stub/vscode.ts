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

export enum ProgressLocation { SourceControl = 1, Window = 10, Notification = 15 }

export interface CancellationToken {
  readonly isCancellationRequested: boolean;
  onCancellationRequested(listener: () => void): Disposable;
}

export class CancellationTokenSource {
  private readonly cancelled = new EventEmitter<void>();
  private requested = false;
  readonly token: CancellationToken;
  constructor() {
    const cancelled = this.cancelled;
    const isRequested = (): boolean => this.requested;
    this.token = {
      get isCancellationRequested(): boolean { return isRequested(); },
      onCancellationRequested: (listener: () => void) => cancelled.event(listener),
    };
  }
  cancel(): void {
    if (!this.requested) {
      this.requested = true;
      this.cancelled.fire();
    }
  }
  dispose(): void {
    this.cancelled.dispose();
  }
}

/** A notification with progress (window.withProgress): its title, and whether its task has finished. */
export interface ProgressShown {
  readonly title: string;
  readonly cancellable: boolean;
  done: boolean;
  /** The user clicks its Cancel button. */
  cancel(): void;
  /** The user clicks a `[label](command:…)` link of its title: runs the command with the link's arguments. */
  click(label: string): Promise<unknown>;
}

export enum CommentMode { Editing = 0, Preview = 1 }
export enum CommentThreadCollapsibleState { Collapsed = 0, Expanded = 1 }

/** A comment thread a controller made (comments.createCommentController): where, what, and whether disposed. */
export class CommentThreadStub {
  canReply = true;
  label: string | undefined;
  contextValue: string | undefined;
  collapsibleState = CommentThreadCollapsibleState.Collapsed;
  disposed = false;
  constructor(readonly uri: Uri, readonly range: Range, readonly comments: readonly { body: string; author: { name: string }; label?: string; mode: CommentMode }[]) {}
  dispose(): void { this.disposed = true; }
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
  accessibilityInformation?: { label: string; role?: string };
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
  /** The documents opened, by URI (the extension opens its own read-only ones, never untitled ones). */
  documents: [] as Uri[],
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
  /** Comment threads created by any comment controller, in order. */
  commentThreads: [] as CommentThreadStub[],
  /** Notifications with progress, in the order shown. */
  progress: [] as ProgressShown[],
  /** The tokens quick picks and input boxes were given (cancelled: VS Code closes them). */
  tokens: [] as (CancellationToken | undefined)[],
  reset(): void {
    this.progress = [];
    this.tokens = [];
    this.commentThreads = [];
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

export enum TerminalExitReason { Unknown = 0, Shutdown = 1, Process = 2, User = 3, Extension = 4 }

/** A terminal as onDidCloseTerminal hands it on. */
export interface ClosedTerminal {
  readonly creationOptions: { name: string; pty: unknown };
  readonly exitStatus: { code: number | undefined; reason: TerminalExitReason } | undefined;
}

/** Fires window.onDidCloseTerminal, as VS Code does when a terminal closes. */
export const terminalClosed = new EventEmitter<ClosedTerminal>();

export const window = {
  createTerminal(options: { name: string; pty: unknown }): { show(): void; options: unknown; creationOptions: unknown } {
    const record = { options, shown: 0 };
    recorder.terminals.push(record);
    return { options, creationOptions: options, show: () => { record.shown++; } };
  },
  onDidCloseTerminal: terminalClosed.event,
  registerTerminalProfileProvider(id: string, provider: { provideTerminalProfile(): Promise<TerminalProfile | undefined> }): Disposable {
    recorder.terminalProfiles.set(id, provider);
    return { dispose: () => recorder.terminalProfiles.delete(id) };
  },
  showWarningMessage: message("warning"),
  showInformationMessage: message("information"),
  showErrorMessage: message("error"),
  showQuickPick<T extends { label: string } | string>(items: readonly T[], options?: { placeHolder?: string; title?: string }, token?: CancellationToken): Promise<T | undefined> {
    recorder.tokens.push(token);
    const labels = items.map((i) => (typeof i === "string" ? i : i.label));
    recorder.shown.push({ kind: "quickPick", message: options?.title ?? options?.placeHolder ?? "", items: labels });
    const answer = nextAnswer();
    return Promise.resolve(items.find((_, index) => labels[index] === answer));
  },
  showInputBox(options?: { prompt?: string; title?: string }, token?: CancellationToken): Promise<string | undefined> {
    recorder.tokens.push(token);
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
  withProgress<R>(
    options: { location: ProgressLocation; title?: string; cancellable?: boolean },
    task: (progress: { report(value: { message?: string }): void }, token: CancellationToken) => Promise<R>,
  ): Promise<R> {
    const title = options.title ?? "";
    const cancellation = new CancellationTokenSource();
    const shown: ProgressShown = {
      title, cancellable: options.cancellable === true, done: false,
      cancel: () => cancellation.cancel(),
      click: (label: string) => {
        const link = [...title.matchAll(/\[([^\]]+)\]\((command:[^)\s]+)\)/g)].find((m) => m[1] === label);
        if (!link) {
          throw new Error(`no link "${label}" in: ${title}`);
        }
        const uri = /^command:([^?]+)(?:\?(.*))?$/.exec(link[2])!;
        const args = uri[2] ? (JSON.parse(decodeURIComponent(uri[2])) as unknown[]) : [];
        return commands.executeCommand(uri[1], ...args);
      },
    };
    recorder.progress.push(shown);
    recorder.shown.push({ kind: "progress", message: title, items: shown.cancellable ? ["Cancel"] : [] });
    return task({ report: () => undefined }, cancellation.token).finally(() => { shown.done = true; });
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

export const comments = {
  createCommentController(id: string, label: string) {
    return {
      id, label,
      createCommentThread(uri: Uri, range: Range, list: CommentThreadStub["comments"]): CommentThreadStub {
        const thread = new CommentThreadStub(uri, range, list);
        recorder.commentThreads.push(thread);
        return thread;
      },
      dispose: () => undefined,
    };
  },
};

export const env = {
  openExternal(uri: Uri): Promise<boolean> {
    recorder.opened.push(uri);
    return Promise.resolve(true);
  },
};

export enum ConfigurationTarget { Global = 1, Workspace = 2, WorkspaceFolder = 3 }

/**
 * Settings by scope ("section.key" → value), as `getConfiguration(section)` reads them (folder over workspace
 * over user); `update` writes one scope and fires onDidChangeConfiguration.
 */
export const settings = {
  global: new Map<string, unknown>(),
  workspace: new Map<string, unknown>(),
  folder: new Map<string, unknown>(),
  changed: new EventEmitter<{ affectsConfiguration(section: string): boolean }>(),
  reset(): void {
    this.global.clear();
    this.workspace.clear();
    this.folder.clear();
  },
};

function scope(target: ConfigurationTarget): Map<string, unknown> {
  return target === ConfigurationTarget.Global ? settings.global : target === ConfigurationTarget.Workspace ? settings.workspace : settings.folder;
}

/** A SecretStorage kept in memory (ExtensionContext.secrets). */
export class SecretStorageStub {
  readonly values = new Map<string, string>();
  get(key: string): Promise<string | undefined> { return Promise.resolve(this.values.get(key)); }
  store(key: string, value: string): Promise<void> { this.values.set(key, value); return Promise.resolve(); }
  delete(key: string): Promise<void> { this.values.delete(key); return Promise.resolve(); }
}

export const workspace = {
  getConfiguration(section: string) {
    const name = (key: string): string => `${section}.${key}`;
    return {
      get<T>(key: string, fallback?: T): T | undefined {
        for (const map of [settings.folder, settings.workspace, settings.global]) {
          if (map.has(name(key))) {
            return map.get(name(key)) as T;
          }
        }
        return fallback;
      },
      inspect<T>(key: string): { globalValue?: T; workspaceValue?: T; workspaceFolderValue?: T } {
        return {
          globalValue: settings.global.get(name(key)) as T | undefined,
          workspaceValue: settings.workspace.get(name(key)) as T | undefined,
          workspaceFolderValue: settings.folder.get(name(key)) as T | undefined,
        };
      },
      update(key: string, value: unknown, target: ConfigurationTarget = ConfigurationTarget.Global): Promise<void> {
        if (value === undefined) {
          scope(target).delete(name(key));
        } else {
          scope(target).set(name(key), value);
        }
        settings.changed.fire({ affectsConfiguration: (what: string) => name(key) === what || name(key).startsWith(`${what}.`) });
        return Promise.resolve();
      },
    };
  },
  onDidChangeConfiguration: settings.changed.event,
  registerTextDocumentContentProvider(scheme: string, provider: unknown): Disposable {
    recorder.providers.set(scheme, provider);
    return { dispose: () => recorder.providers.delete(scheme) };
  },
  openTextDocument(uri: Uri): Promise<{ uri: Uri }> {
    recorder.documents.push(uri);
    return Promise.resolve({ uri });
  },
};
