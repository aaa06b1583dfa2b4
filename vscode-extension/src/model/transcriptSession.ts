// Keeps one TranscriptModel in step with the hub: reads the stored transcript a page at a time (never one
// huge answer), then watches the task from the last seq read, and after a reconnect watches again from
// the last seq applied. No line is missed or shown twice.

import { Disposable } from "../protocol/connection";
import { RoundhouseApi } from "../protocol/api";
import { TaskConnectionState } from "../protocol/types";
import { TranscriptModel } from "./transcript";

export type SessionState = "loading" | "live" | "lost" | "ended" | "closed";

export interface SessionOptions {
  readonly pageSize: number;
  /** Called after each page and each live event that changed the model. */
  readonly onChange: () => void;
  readonly onState?: (state: SessionState, reason?: string) => void;
  /** Lets the host breathe between pages (defaults to a macrotask turn). */
  readonly yieldBetweenPages?: () => Promise<void>;
}

export class TranscriptSession implements Disposable {
  readonly model: TranscriptModel;
  private readonly subscriptions: Disposable[] = [];
  private current: SessionState = "loading";
  private pagesRead = 0;

  constructor(private api: RoundhouseApi, readonly task: number, private readonly options: SessionOptions) {
    this.model = new TranscriptModel(task);
    this.follow(api);
  }

  /** Listens to the task's events and connection states on `api` (and no longer on the one before). */
  private follow(api: RoundhouseApi): void {
    this.subscriptions.splice(0).forEach((s) => s.dispose());
    this.api = api;
    this.subscriptions.push(
      api.onTaskEvent((event) => {
        if (event.task_id === this.task && this.current !== "closed" && this.model.apply(event)) {
          this.options.onChange();
        }
      }),
      api.onTaskConnection((state) => this.connection(state)),
    );
  }

  get state(): SessionState {
    return this.current;
  }

  /** How many transcript pages were read (for tests and the view's status line). */
  get pages(): number {
    return this.pagesRead;
  }

  /** Reads the stored transcript page by page, then follows the task live. */
  async open(): Promise<void> {
    this.setState("loading");
    await this.readPages();
    await this.watch();
  }

  /**
   * After the bridge restarted (a new process has no watches): read what was stored meanwhile and watch
   * again from the last seq applied. `api` is the new client's when "Restart the Bridge" replaced the client
   * (the old one is not running any more); the session follows it from now on.
   */
  async reconnect(api?: RoundhouseApi): Promise<void> {
    if (this.current === "closed") {
      return;
    }
    if (api !== undefined && api !== this.api) {
      this.follow(api);
    }
    await this.readPages();
    await this.watch();
  }

  private async readPages(): Promise<void> {
    const breathe = this.options.yieldBetweenPages ?? (() => new Promise<void>((resolve) => setImmediate(resolve)));
    for (;;) {
      const page = await this.api.transcript({ task: this.task, after: this.model.lastSeq, limit: this.options.pageSize });
      this.pagesRead++;
      this.model.applyAll(page.entries);
      this.model.advanceTo(page.last_seq);
      this.options.onChange();
      if (!page.has_more || this.current === "closed") {
        return;
      }
      await breathe();
    }
  }

  private async watch(): Promise<void> {
    if (this.current === "closed") {
      return;
    }
    await this.api.watchTask(this.task, this.model.lastSeq);
    this.setState("live");
  }

  private connection(state: TaskConnectionState): void {
    if (state.task !== this.task || this.current === "closed") {
      return;
    }
    if (state.state === "lost") {
      this.setState("lost", state.reason);
    } else if (state.state === "ended") {
      this.setState("ended", state.reason);
    } else if (this.current !== "loading") {
      this.setState("live");
    }
  }

  private setState(state: SessionState, reason?: string): void {
    this.current = state;
    this.options.onState?.(state, reason);
  }

  /** Stops following: unwatches the task (best effort: the bridge may be gone). */
  dispose(): void {
    if (this.current === "closed") {
      return;
    }
    this.setState("closed");
    this.subscriptions.forEach((s) => s.dispose());
    this.api.unwatchTask(this.task).catch(() => undefined);
  }
}
