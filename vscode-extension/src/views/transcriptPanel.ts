import * as vscode from "vscode";
import { RoundhouseApi } from "../protocol/api";
import { describeError } from "../protocol/connection";
import { TranscriptSession, SessionState } from "../model/transcriptSession";
import { TranscriptWindow, WebviewOutbox, isFromWebview } from "../model/transcriptView";
import { transcriptPage } from "../model/transcriptHtml";
import { PromptAction, optionLabel } from "../model/decisions";
import { randomBytes } from "crypto";
import { DecisionClosed } from "../protocol/types";

const LABELS = Object.fromEntries(["allow_once", "allow_always", "deny", "approve", "reject", "adopt", "decline"].map((o) => [o, optionLabel(o)]));

export interface TranscriptSettings {
  readonly pageSize: number;
  readonly window: number;
}

/**
 * One task's transcript in a webview: pages first, then live; updates are batched every 50 ms. Messages wait
 * for the webview's "ready" (WebviewOutbox), so the header's state is never lost.
 */
export class TranscriptPanel implements vscode.Disposable {
  readonly session: TranscriptSession;
  private readonly window: TranscriptWindow;
  private readonly outbox: WebviewOutbox;
  private flushTimer: ReturnType<typeof setTimeout> | undefined;
  private stateText = "Loading…";
  private shownSize = -1;
  private disposed = false;

  constructor(
    private readonly panel: vscode.WebviewPanel,
    api: RoundhouseApi,
    readonly task: number,
    settings: TranscriptSettings,
    /** A button of the transcript: an option, or "Answer…" (the input box) for a question. */
    private readonly answer: (decision: number, action: PromptAction) => Promise<void>,
    private readonly onClosed: () => void,
  ) {
    this.session = new TranscriptSession(api, task, {
      pageSize: settings.pageSize,
      onChange: () => this.scheduleFlush(),
      onState: (state, reason) => this.state(state, reason),
    });
    this.window = new TranscriptWindow(this.session.model, settings.window);
    this.outbox = new WebviewOutbox(this.window, (message) => {
      if (!this.disposed) {
        void this.panel.webview.postMessage(message);
      }
    });
    panel.webview.options = { enableScripts: true };
    panel.webview.html = transcriptPage({ title: panel.title, nonce: randomBytes(16).toString("base64"), cspSource: panel.webview.cspSource, labels: LABELS });
    panel.webview.onDidReceiveMessage((message: unknown) => this.received(message));
    panel.onDidDispose(() => this.dispose());
    this.postState();
  }

  async open(): Promise<void> {
    try {
      await this.session.open();
    } catch (error) {
      this.header(`Could not read the transcript: ${describeError(error)}`);
    }
  }

  /** The bridge is running again; `api` is the new client's after "Restart the Bridge". */
  async reconnect(api?: RoundhouseApi): Promise<void> {
    try {
      await this.session.reconnect(api);
    } catch (error) {
      this.header(`Could not resume: ${describeError(error)}`);
    }
  }

  /** A decision closed somewhere: its line in this transcript stops offering buttons. */
  decisionClosed(closed: DecisionClosed): void {
    if (this.session.model.decisionClosed(closed.decision, closed.status, closed.answer)) {
      this.scheduleFlush();
    }
  }

  reveal(): void {
    this.panel.reveal();
  }

  private received(message: unknown): void {
    if (!isFromWebview(message)) {
      return;
    }
    if (message.type === "ready") {
      this.outbox.opened();
    } else if (message.type === "showEarlier") {
      this.outbox.post(this.window.showEarlier());
    } else if (message.type === "answerText") {
      void this.answer(message.decision, { text: true });
    } else {
      void this.answer(message.decision, { option: message.option });
    }
  }

  private state(state: SessionState, reason?: string): void {
    const text: Record<SessionState, string> = {
      loading: "Loading…",
      live: "Live",
      lost: `Reconnecting… ${reason ?? ""}`,
      ended: `Ended: ${reason ?? "the task is gone"}`,
      closed: "Closed",
    };
    this.stateText = text[state];
    this.postState();
  }

  /** The header line: the task, the session's state and how many items it holds. */
  get headerText(): string {
    return `#${this.task} · ${this.stateText} · ${this.session.model.size} items`;
  }

  private header(text: string): void {
    this.stateText = text;
    this.postState();
  }

  private postState(): void {
    this.shownSize = this.session.model.size;
    this.outbox.post({ type: "state", text: this.headerText });
  }

  private scheduleFlush(): void {
    if (this.flushTimer === undefined && !this.disposed) {
      this.flushTimer = setTimeout(() => {
        this.flushTimer = undefined;
        const changes = this.window.changes();
        if (changes) {
          this.outbox.post(changes);
        }
        if (this.shownSize !== this.session.model.size) {
          this.postState(); // the item count in the header follows the transcript
        }
      }, 50);
    }
  }

  dispose(): void {
    if (this.disposed) {
      return;
    }
    this.disposed = true;
    if (this.flushTimer !== undefined) {
      clearTimeout(this.flushTimer);
    }
    this.session.dispose();
    this.onClosed();
    this.panel.dispose();
  }
}
