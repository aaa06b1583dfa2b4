// Follows one service's log through service_logs: the last lines first, then every second from the
// previous read's next_offset, so each line is shown once (lines the hub's bounded log dropped come as
// its marker line). The timer is injected so tests drive it without waiting. No vscode here.

import { RoundhouseApi } from "../protocol/api";
import { describeError } from "../protocol/connection";
import { LogLine, ServiceStatus } from "../protocol/types";
import { serviceRunning } from "./workspace";

export interface Timers {
  setInterval(run: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

export const realTimers: Timers = {
  setInterval: (run, ms) => setInterval(run, ms),
  clearInterval: (handle) => clearInterval(handle as ReturnType<typeof setInterval>),
};

export interface LogSink {
  append(text: string): void;
}

/** One line as the output channel shows it: stderr marked, the hub's marker as it says it. */
export function formatLogLine(line: LogLine): string {
  return line.stream === "stderr" ? `[stderr] ${line.text}` : line.text;
}

export interface FollowerOptions {
  readonly intervalMs?: number;
  /** How many lines the first read shows (from the end). */
  readonly tail?: number;
  readonly timers?: Timers;
  /** Called after each read that appended lines. */
  readonly onRead?: (lines: number) => void;
}

export class LogFollower {
  private offset: number | undefined;
  private handle: unknown;
  private reading: Promise<number> | undefined;
  private readonly timers: Timers;
  private readonly intervalMs: number;
  private readonly tail: number;

  constructor(
    private readonly api: () => RoundhouseApi,
    readonly project: string | number,
    readonly service: string,
    private readonly sink: LogSink,
    private readonly options: FollowerOptions = {},
  ) {
    this.timers = options.timers ?? realTimers;
    this.intervalMs = options.intervalMs ?? 1000;
    this.tail = options.tail ?? 200;
  }

  get following(): boolean {
    return this.handle !== undefined;
  }

  /** The offset the next read starts from (undefined before the first read). */
  get nextOffset(): number | undefined {
    return this.offset;
  }

  /** Reads now, then every interval until stop(). */
  start(): Promise<number> {
    if (this.handle === undefined) {
      this.handle = this.timers.setInterval(() => void this.read(), this.intervalMs);
    }
    return this.read();
  }

  stop(): void {
    if (this.handle !== undefined) {
      this.timers.clearInterval(this.handle);
      this.handle = undefined;
    }
  }

  /**
   * The service's status changed: follow while it runs; once it stopped, read what it printed last and
   * stop polling. Answers when that read is done.
   */
  async statusChanged(status: ServiceStatus): Promise<void> {
    if (serviceRunning(status)) {
      await this.start();
    } else if (this.following) {
      this.stop();
      await this.read();
    }
  }

  /** One read (never two at once): appends the new lines and answers how many. */
  read(): Promise<number> {
    if (!this.reading) {
      this.reading = this.readAll().finally(() => {
        this.reading = undefined;
      });
    }
    return this.reading;
  }

  private async readAll(): Promise<number> {
    let total = 0;
    try {
      for (let page = 0; page < 50; page++) {
        const from = this.offset ?? -this.tail;
        const logs = await this.api().serviceLogs(this.project, this.service, from, 2000);
        logs.lines.forEach((line) => this.sink.append(formatLogLine(line)));
        total += logs.lines.length;
        const moved = logs.next_offset !== this.offset;
        this.offset = logs.next_offset;
        if (logs.lines.length < 2000 || !moved) {
          break;
        }
      }
    } catch (error) {
      this.sink.append(`[roundhouse] could not read the log of ${this.service}: ${describeError(error)}`);
      this.stop();
    }
    if (total > 0) {
      this.options.onRead?.(total);
    }
    return total;
  }
}
