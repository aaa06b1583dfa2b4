// A recording stand-in for the bridge connection, for model tests: answers roundhouse/transcript from an
// in-memory event log a page at a time and roundhouse/watchTask by replaying after `after`, as the real
// bridge does (the real one is exercised by test/real/).

import { Disposable, RpcConnection } from "../../src/protocol/connection";
import { HubEvent } from "../../src/protocol/types";

export class FakeBridge implements RpcConnection {
  readonly requests: { method: string; params: Record<string, unknown> }[] = [];
  readonly log: HubEvent[] = [];
  private readonly handlers = new Map<string, (params: unknown) => void>();
  private seq = 0;
  answers: Record<string, (params: Record<string, unknown>) => unknown> = {};
  /** A stopped client refuses every request, as vscode-languageclient does once disposed. */
  stopped = false;

  /** "Restart the Bridge": this client stops; the new one answers from the same hub (the same log). */
  restart(): FakeBridge {
    this.stopped = true;
    const next = new FakeBridge();
    next.log.push(...this.log);
    next.seq = this.seq;
    return next;
  }

  /** Appends a stored event for task 7 and returns it (not delivered: use push for live ones). */
  store(type: string, data: Record<string, unknown>, task = 7): HubEvent {
    const event: HubEvent = { seq: ++this.seq, type, at: "2026-01-01T00:00:00Z", actor: "agent:7", task_id: task, data };
    this.log.push(event);
    return event;
  }

  /** Delivers a notification as the bridge would. */
  push(method: string, params: unknown): void {
    this.handlers.get(method)?.(params);
  }

  sendRequest<R>(method: string, params: object): Promise<R> {
    const p = params as Record<string, unknown>;
    if (this.stopped) {
      return Promise.reject(new Error("Client is not running"));
    }
    this.requests.push({ method, params: p });
    if (this.answers[method]) {
      return Promise.resolve(this.answers[method](p) as R);
    }
    if (method === "roundhouse/transcript") {
      const after = Number(p.after ?? 0);
      const limit = Number(p.limit ?? 500);
      const rest = this.log.filter((e) => e.seq > after);
      const entries = rest.slice(0, limit);
      const last = entries.length > 0 ? entries[entries.length - 1].seq : after;
      return Promise.resolve({ task: p.task, generation: 1, current_generation: 1, prior_summaries: [], entries, has_more: rest.length > limit, last_seq: last } as R);
    }
    if (method === "roundhouse/watchTask") {
      const after = Number(p.after ?? 0);
      const answer = { watching: true, task: p.task, after };
      // The bridge answers first, then replays what came after `after`.
      setImmediate(() => this.log.filter((e) => e.seq > after && e.task_id === p.task).forEach((e) => this.push("roundhouse/taskEvent", e)));
      return Promise.resolve(answer as R);
    }
    return Promise.resolve({} as R);
  }

  onNotification(method: string, handler: (params: unknown) => void): Disposable {
    this.handlers.set(method, handler);
    return { dispose: () => this.handlers.delete(method) };
  }
}

/** Resolves once `check` holds, or fails after `ms` naming `what` (no fixed sleeps). */
export async function until(what: string, check: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) {
      throw new Error(`${what}: not within ${ms} ms`);
    }
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}
