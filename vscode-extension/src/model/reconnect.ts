// The connection to a remote hub as a small state machine: connecting, connected, retrying after a lost or
// failed connection with a growing pause (1 s, 2 s, 4 s … at most 30 s), signed out (the hub refused the
// token: retrying would not help), or failed (refused for another reason, such as the Origin). The timer is
// injected, so tests step through the pauses without waiting. No vscode here.

export type ConnectionState =
  | { readonly kind: "connecting"; readonly attempt: number }
  | { readonly kind: "connected" }
  | { readonly kind: "retrying"; readonly attempt: number; readonly inMs: number; readonly reason: string }
  | { readonly kind: "signedOut"; readonly reason: string }
  | { readonly kind: "failed"; readonly reason: string }
  | { readonly kind: "stopped" };

/** setTimeout and clearTimeout, or a test's fake. */
export interface Timer {
  set(run: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

export const realTimer: Timer = {
  set: (run, ms) => setTimeout(run, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** Why an attempt failed, as the reconnector needs to know it. */
export interface Failure {
  readonly message: string;
  /** The hub refused the token: stop, and ask to sign in. */
  readonly signIn?: boolean;
  /** Refused for a reason that retrying cannot fix (a foreign Origin, a bad URL): stop, and say why. */
  readonly final?: boolean;
}

/** The pause before attempt `attempt` (1-based) after a failure: 1 s doubling, at most 30 s. */
export function backoffMs(attempt: number, firstMs = 1000, maxMs = 30000): number {
  return Math.min(maxMs, firstMs * 2 ** Math.max(0, attempt - 1));
}

/**
 * Keeps one connection up. `connect` opens it (resolving once it is up) or rejects with a Failure-shaped
 * error; the owner calls lost() when an open connection ends. Runs on one thread (the extension host's).
 */
export class Reconnector {
  private state: ConnectionState = { kind: "stopped" };
  private pending: unknown;
  private generation = 0;

  constructor(
    private readonly connect: () => Promise<void>,
    private readonly onState: (state: ConnectionState) => void,
    private readonly timer: Timer = realTimer,
    private readonly describe: (error: unknown) => Failure = (error) => ({ message: error instanceof Error ? error.message : String(error) }),
  ) {}

  get current(): ConnectionState {
    return this.state;
  }

  /** Connects now (again), forgetting any pause under way. */
  start(): void {
    this.cancelPause();
    void this.attempt(1);
  }

  /** The open connection ended: reconnect after the first pause. Ignored unless connected. */
  lost(reason: string): void {
    if (this.state.kind === "connected") {
      this.retry(1, reason);
    }
  }

  /** No more attempts; the state is stopped. */
  stop(): void {
    this.generation++;
    this.cancelPause();
    this.set({ kind: "stopped" });
  }

  private async attempt(attempt: number): Promise<void> {
    const generation = ++this.generation;
    this.set({ kind: "connecting", attempt });
    try {
      await this.connect();
    } catch (error) {
      if (generation !== this.generation) {
        return; // stopped or restarted meanwhile
      }
      const failure = this.describe(error);
      if (failure.signIn) {
        this.set({ kind: "signedOut", reason: failure.message });
      } else if (failure.final) {
        this.set({ kind: "failed", reason: failure.message });
      } else {
        this.retry(attempt + 1, failure.message);
      }
      return;
    }
    if (generation === this.generation) {
      this.set({ kind: "connected" });
    }
  }

  private retry(attempt: number, reason: string): void {
    const generation = ++this.generation;
    const inMs = backoffMs(attempt - 1);
    this.set({ kind: "retrying", attempt, inMs, reason });
    this.pending = this.timer.set(() => {
      this.pending = undefined;
      if (generation === this.generation) {
        void this.attempt(attempt);
      }
    }, inMs);
  }

  private cancelPause(): void {
    if (this.pending !== undefined) {
      this.timer.clear(this.pending);
      this.pending = undefined;
    }
  }

  private set(state: ConnectionState): void {
    this.state = state;
    this.onState(state);
  }
}

/** The status bar's text and tooltip for a connection state (connected shows the board's counts instead). */
export function connectionStatus(state: ConnectionState, hub: string): { text: string; tooltip: string } | undefined {
  switch (state.kind) {
    case "connecting":
      return { text: "$(sync~spin) Roundhouse: connecting", tooltip: `Connecting to the hub at ${hub}${state.attempt > 1 ? ` (attempt ${state.attempt})` : ""}` };
    case "connected":
      return undefined;
    case "retrying":
      return {
        text: `$(debug-disconnect) Roundhouse: retrying in ${Math.round(state.inMs / 1000)} s`,
        tooltip: `Disconnected from the hub at ${hub}: ${state.reason}. Retrying (attempt ${state.attempt}); click to see what needs you.`,
      };
    case "signedOut":
      return { text: "$(account) Roundhouse: signed out", tooltip: `${state.reason}. Run "Roundhouse: Sign in to Hub".` };
    case "failed":
      return { text: "$(error) Roundhouse: not connected", tooltip: state.reason };
    case "stopped":
      return { text: "$(debug-disconnect) Roundhouse", tooltip: "Not connected to a hub" };
  }
}
