import * as vscode from "vscode";
import { RoundhouseApi } from "../protocol/api";
import { describeError } from "../protocol/connection";
import { TranscriptSession, SessionState } from "../model/transcriptSession";
import { TranscriptWindow, ToWebview, isFromWebview } from "../model/transcriptView";
import { transcriptPage } from "../model/transcriptHtml";
import { optionLabel } from "../model/decisions";
import { randomBytes } from "crypto";

const LABELS = Object.fromEntries(["allow_once", "allow_always", "deny", "approve", "reject", "adopt", "decline"].map((o) => [o, optionLabel(o)]));

export interface TranscriptSettings {
  readonly pageSize: number;
  readonly window: number;
}

/** One task's transcript in a webview: pages first, then live; updates are batched every 50 ms. */
export class TranscriptPanel implements vscode.Disposable {
  readonly session: TranscriptSession;
  private readonly window: TranscriptWindow;
  private flushTimer: ReturnType<typeof setTimeout> | undefined;
  private ready = false;
  private disposed = false;

  constructor(
    private readonly panel: vscode.WebviewPanel,
    api: RoundhouseApi,
    readonly task: number,
    settings: TranscriptSettings,
    private readonly answer: (decision: number, option: string) => Promise<void>,
    private readonly onClosed: () => void,
  ) {
    this.session = new TranscriptSession(api, task, {
      pageSize: settings.pageSize,
      onChange: () => this.scheduleFlush(),
      onState: (state, reason) => this.state(state, reason),
    });
    this.window = new TranscriptWindow(this.session.model, settings.window);
    panel.webview.options = { enableScripts: true };
    panel.webview.html = transcriptPage({ title: panel.title, nonce: randomBytes(16).toString("base64"), cspSource: panel.webview.cspSource, labels: LABELS });
    panel.webview.onDidReceiveMessage((message: unknown) => this.received(message));
    panel.onDidDispose(() => this.dispose());
  }

  async open(): Promise<void> {
    try {
      await this.session.open();
    } catch (error) {
      this.post({ type: "state", text: `Could not read the transcript: ${describeError(error)}` });
    }
  }

  async reconnect(): Promise<void> {
    try {
      await this.session.reconnect();
    } catch (error) {
      this.post({ type: "state", text: `Could not resume: ${describeError(error)}` });
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
      this.ready = true;
      this.post(this.window.reset());
    } else if (message.type === "showEarlier") {
      this.post(this.window.showEarlier());
    } else {
      void this.answer(message.decision, message.option);
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
    this.post({ type: "state", text: `#${this.task} · ${text[state]} · ${this.session.model.size} items` });
  }

  private scheduleFlush(): void {
    if (this.flushTimer === undefined && !this.disposed) {
      this.flushTimer = setTimeout(() => {
        this.flushTimer = undefined;
        const changes = this.window.changes();
        if (changes) {
          this.post(changes);
        }
      }, 50);
    }
  }

  private post(message: ToWebview): void {
    if (this.ready && !this.disposed) {
      void this.panel.webview.postMessage(message);
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
